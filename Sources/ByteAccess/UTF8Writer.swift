/// Bytes written straight into a new `String`'s storage (``Swift/String/init(utf8Capacity:_:)``).
///
/// Decoders whose output is never longer than their input (JSON unescaping) write through this instead of holding
/// the string's uninitialised buffer themselves: one allocation, no intermediate array, and a write past the
/// capacity is dropped instead of landing out of bounds, whatever the input.
@frozen
@usableFromInline
package struct UTF8Writer {
    @usableFromInline let base: UnsafeMutableBufferPointer<UInt8>
    /// Bytes written so far.
    @usableFromInline
    package private(set) var count: Int

    @inlinable
    init(_ base: UnsafeMutableBufferPointer<UInt8>) {
        self.base = base
        self.count = 0
    }

    /// Appends `byte`; dropped when the capacity is used up.
    @inlinable
    @usableFromInline
    package mutating func append(_ byte: UInt8) {
        guard count < base.count else { return }
        base[count] = byte
        count += 1
    }

    /// Appends as many of `bytes` as fit, in one copy.
    @inlinable
    @usableFromInline
    package mutating func append(_ bytes: BorrowedBytes) {
        let n = Swift.min(bytes.count, base.count - count)
        guard n > 0, let target = base.baseAddress, let source = bytes.base.baseAddress else { return }
        (target + count).update(from: source.assumingMemoryBound(to: UInt8.self), count: n)
        count += n
    }
}

extension String {
    /// The UTF-8 that `body` writes, at most `utf8Capacity` bytes, invalid sequences repaired as
    /// `String(decoding:as:)` repairs them.
    @inlinable
    @usableFromInline
    package init(utf8Capacity: Int, _ body: (inout UTF8Writer) -> Void) {
        guard utf8Capacity > 0 else {
            self = ""
            return
        }
        self.init(unsafeUninitializedCapacity: utf8Capacity) { buffer in
            var writer = UTF8Writer(buffer)
            body(&writer)
            return writer.count
        }
    }
}
