#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Read-only bytes lent to a closure (``Swift/Array/withBorrowedBytes(_:)``), with reads that check their bounds.
///
/// The parsers read input through this type instead of holding `UnsafeRawBufferPointer`s of their own, so the
/// pointer arithmetic of the whole package sits in this module (docs/architecture.md, "Unsafe code"). Every read
/// past the end returns nil or an empty result instead of trapping: input is hostile. The value must not outlive
/// the closure it was lent to, as with the standard library's `withUnsafeBytes`.
@frozen
@usableFromInline
package struct BorrowedBytes: Sequence {
    @usableFromInline let base: UnsafeRawBufferPointer

    @inlinable
    init(_ base: UnsafeRawBufferPointer) {
        self.base = base
    }

    /// Bytes that code outside this module still holds as a buffer: the bridge for the files the unsafe-code check
    /// still allows (Scripts/check-unsafe.py), while they move to ``BorrowedBytes``.
    @inlinable
    @usableFromInline
    package init(unsafeBytes: UnsafeRawBufferPointer) {
        self.base = unsafeBytes
    }

    /// The bytes as the standard library's buffer, for the C-interop shims that hand them to a C call and the files
    /// the unsafe-code check still allows (Scripts/check-unsafe.py).
    @inlinable
    @usableFromInline
    package var unsafeBytes: UnsafeRawBufferPointer { base }

    /// No bytes.
    @inlinable
    @usableFromInline
    package static var empty: BorrowedBytes { BorrowedBytes(UnsafeRawBufferPointer(start: nil, count: 0)) }

    @inlinable
    @usableFromInline
    package var count: Int { base.count }

    @inlinable
    @usableFromInline
    package var isEmpty: Bool { base.isEmpty }

    /// The byte at `offset`; nil outside `0..<count`.
    @inlinable
    @usableFromInline
    package subscript(offset: Int) -> UInt8? {
        guard offset >= 0, offset < base.count else { return nil }
        return base[offset]
    }

    /// The byte at `offset`, which the caller's loop condition already keeps inside `0..<count`.
    ///
    /// Checked in debug builds only (as the standard library's unsafe buffers are): the number and string loops of
    /// the JSON reader test their bound once per byte already, and a second, optional-returning check there cost
    /// instructions on every byte of every report.
    @inlinable @inline(__always)
    @usableFromInline
    package subscript(unchecked offset: Int) -> UInt8 {
        base[offset]
    }

    /// The first byte, nil when empty.
    @inlinable
    @usableFromInline
    package var first: UInt8? { self[0] }

    /// The last byte, nil when empty.
    @inlinable
    @usableFromInline
    package var last: UInt8? { self[base.count - 1] }

    /// The bytes of `range` clamped to `0...count`: an empty view when nothing of it exists.
    @inlinable
    @usableFromInline
    package func slice(_ range: Range<Int>) -> BorrowedBytes {
        let lower = Swift.min(Swift.max(0, range.lowerBound), base.count)
        let upper = Swift.min(Swift.max(lower, range.upperBound), base.count)
        return BorrowedBytes(UnsafeRawBufferPointer(rebasing: base[lower..<upper]))
    }

    /// The bytes from `offset` to the end (empty past the end).
    @inlinable
    @usableFromInline
    package func slice(from offset: Int) -> BorrowedBytes {
        slice(Swift.min(offset, base.count)..<base.count)
    }

    /// The first `length` bytes, or all of them when there are fewer.
    @inlinable
    @usableFromInline
    package func prefix(_ length: Int) -> BorrowedBytes {
        slice(0..<Swift.max(0, length))
    }

    /// The bytes as UTF-8 (invalid sequences replaced, as `String(decoding:as:)` does).
    @inlinable
    @usableFromInline
    package var string: String { String(decoding: base, as: UTF8.self) }

    /// A copy of the bytes.
    @inlinable
    @usableFromInline
    package var array: [UInt8] { [UInt8](base) }

    /// Appends the bytes to `array` in one copy.
    @inlinable
    @usableFromInline
    package func append(to array: inout [UInt8]) {
        array.append(contentsOf: base)
    }

    @inlinable
    @usableFromInline
    package func makeIterator() -> UnsafeRawBufferPointer.Iterator { base.makeIterator() }

    @inlinable
    @usableFromInline
    package var underestimatedCount: Int { base.count }

    @inlinable
    @usableFromInline
    package func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows
        -> R?
    {
        try body(base.assumingMemoryBound(to: UInt8.self))
    }
}
