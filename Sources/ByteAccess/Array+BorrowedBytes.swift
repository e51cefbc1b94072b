extension Array where Element == UInt8 {
    /// Lends the array's bytes to `body` as ``BorrowedBytes``, which must not escape it.
    @inlinable
    @usableFromInline
    package func withBorrowedBytes<Value, Failure: Error>(
        _ body: (BorrowedBytes) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        // The standard library's closure is not typed-throws here: the error is carried out as a value.
        let outcome: Result<Value, Failure> = withUnsafeBytes { raw in
            do throws(Failure) {
                return .success(try body(BorrowedBytes(raw)))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

extension Array where Element == UInt8 {
    /// Lends bytes `offset ..< offset + count` of the array (clamped to it) to a C call that fills them, such as
    /// `read(2)` or `pread(2)`, and returns what the call returns; 0 without calling when the range is empty.
    ///
    /// The readers that load a file into an array they sized themselves call the kernel through this, so the
    /// pointer arithmetic of "the rest of the buffer" is done, and clamped, here.
    @inlinable
    @usableFromInline
    package mutating func fillBytes(at offset: Int, count: Int, _ call: (UnsafeMutableRawPointer, Int) -> Int) -> Int {
        let lower = Swift.min(Swift.max(0, offset), self.count)
        let length = Swift.min(Swift.max(0, count), self.count - lower)
        guard length > 0 else { return 0 }
        return withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return 0 }
            return call(base + lower, length)
        }
    }
}

extension ArraySlice where Element == UInt8 {
    /// Lends the slice's bytes to `body` as ``BorrowedBytes`` (offset 0 is the slice's first byte).
    @inlinable
    @usableFromInline
    package func withBorrowedBytes<Value, Failure: Error>(
        _ body: (BorrowedBytes) throws(Failure) -> Value
    ) throws(Failure) -> Value {
        let outcome: Result<Value, Failure> = withUnsafeBytes { raw in
            do throws(Failure) {
                return .success(try body(BorrowedBytes(raw)))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

extension String.UTF8View {
    /// Lends the string's UTF-8 to `body` when it is stored contiguously (always, for a native string); nil when not.
    @inlinable
    @usableFromInline
    package func withBorrowedBytesIfAvailable<Result>(_ body: (BorrowedBytes) throws -> Result) rethrows -> Result? {
        try withContiguousStorageIfAvailable { try body(BorrowedBytes(UnsafeRawBufferPointer($0))) }
    }
}

extension String {
    /// Lends the string's UTF-8 to `body`, making the string native and contiguous first when it is not.
    @inlinable
    @usableFromInline
    package mutating func withBorrowedUTF8<Result>(_ body: (BorrowedBytes) throws -> Result) rethrows -> Result {
        try withUTF8 { try body(BorrowedBytes(UnsafeRawBufferPointer($0))) }
    }
}

extension StaticString {
    /// Lends the literal's UTF-8 to `body`.
    @inlinable
    @usableFromInline
    package func withBorrowedUTF8<Result>(_ body: (BorrowedBytes) -> Result) -> Result {
        withUTF8Buffer { body(BorrowedBytes(UnsafeRawBufferPointer($0))) }
    }
}

extension Substring {
    /// Lends the substring's UTF-8 to `body`, making it native and contiguous first when it is not.
    @inlinable
    @usableFromInline
    package mutating func withBorrowedUTF8<Result>(_ body: (BorrowedBytes) throws -> Result) rethrows -> Result {
        try withUTF8 { try body(BorrowedBytes(UnsafeRawBufferPointer($0))) }
    }
}

extension Collection where Element == UInt8 {
    /// Lends the bytes to `body` as ``BorrowedBytes``: in place when the collection stores them contiguously (an
    /// array, a slice, a `Data`), else from a copy.
    @inlinable
    @usableFromInline
    package func withContiguousBorrowedBytes<Result>(_ body: (BorrowedBytes) throws -> Result) rethrows -> Result {
        if let result = try withContiguousStorageIfAvailable({ try body(BorrowedBytes(UnsafeRawBufferPointer($0))) }) {
            return result
        }
        return try Array(self).withUnsafeBytes { try body(BorrowedBytes($0)) }
    }
}
