/// Why a ``ByteCursor`` read failed: what it needed and where, for the caller's own error type.
@usableFromInline
package enum ByteCursorFailure: Error, Equatable, Sendable {
    /// `needed` bytes were wanted at `offset` and fewer were left.
    case truncated(needed: Int, offset: Int)
    /// The LEB128 at `offset` ran past the end of the bytes.
    case truncatedLEB128(offset: Int)
    /// The LEB128 at `offset` had set bits past 64.
    case overflowingLEB128(offset: Int)
    /// The LEB128 at `offset` was longer than 10 bytes.
    case overlongLEB128(offset: Int)
    /// The NUL-terminated string at `offset` had no terminator.
    case unterminated(offset: Int)
    /// `offset` lies outside the bytes.
    case outside(offset: Int)
}

/// A read position over ``BorrowedBytes``: integers in either byte order, LEB128, C strings, all bounds-checked.
///
/// A read that does not fit throws ``ByteCursorFailure`` and leaves the position unchanged, so hostile input can
/// never make a parser trap or read past the end.
@frozen
@usableFromInline
package struct ByteCursor {
    @usableFromInline
    package let bytes: BorrowedBytes
    /// The position, 0-based from the start of ``bytes``.
    @usableFromInline
    package var offset: Int

    @inlinable
    @usableFromInline
    package init(_ bytes: BorrowedBytes, offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Bytes left after the position (0 when it lies outside).
    @inlinable
    @usableFromInline
    package var remaining: Int { offset >= 0 && offset <= bytes.count ? bytes.count - offset : 0 }

    @inlinable
    @usableFromInline
    package var isAtEnd: Bool { remaining == 0 }

    /// The byte at the position, without moving; nil at the end.
    @inlinable
    @usableFromInline
    package func peek() -> UInt8? { bytes[offset] }

    /// Moves to `position`, which must lie inside the bytes (their end included).
    @inlinable
    @usableFromInline
    package mutating func seek(to position: Int) throws(ByteCursorFailure) {
        guard position >= 0, position <= bytes.count else { throw .outside(offset: position) }
        offset = position
    }

    /// Moves forward `count` bytes.
    @inlinable
    @usableFromInline
    package mutating func skip(_ count: Int) throws(ByteCursorFailure) {
        guard count >= 0, count <= remaining else { throw .truncated(needed: count, offset: offset) }
        offset += count
    }

    @inlinable
    @usableFromInline
    package mutating func readByte() throws(ByteCursorFailure) -> UInt8 {
        guard let value = bytes[offset] else { throw .truncated(needed: 1, offset: offset) }
        offset += 1
        return value
    }

    /// An unsigned integer of 1 to 8 bytes.
    @inlinable
    @usableFromInline
    package mutating func readUnsigned(size: Int, littleEndian: Bool) throws(ByteCursorFailure) -> UInt64 {
        guard let value = bytes.unsigned(at: offset, size: size, littleEndian: littleEndian) else {
            throw .truncated(needed: size, offset: offset)
        }
        offset += size
        return value
    }

    /// An unsigned LEB128 of at most 10 bytes; bits past 64 must be zero.
    @inlinable
    @usableFromInline
    package mutating func readULEB128() throws(ByteCursorFailure) -> UInt64 {
        let start = offset
        var position = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard let byte = bytes[position] else { throw .truncatedLEB128(offset: start) }
            position += 1
            let low = UInt64(byte & 0x7f)
            if shift < 64 {
                let shifted = low << shift
                if shift > 0, shifted >> shift != low { throw .overflowingLEB128(offset: start) }
                result |= shifted
            } else if low != 0 {
                throw .overflowingLEB128(offset: start)
            }
            if byte & 0x80 == 0 {
                offset = position
                return result
            }
            shift += 7
            if shift >= 70 { throw .overlongLEB128(offset: start) }
        }
    }

    /// A signed LEB128 of at most 10 bytes.
    @inlinable
    @usableFromInline
    package mutating func readSLEB128() throws(ByteCursorFailure) -> Int64 {
        let start = offset
        var position = offset
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var byte: UInt8 = 0
        repeat {
            guard let next = bytes[position] else { throw .truncatedLEB128(offset: start) }
            byte = next
            position += 1
            if shift < 64 { result |= UInt64(byte & 0x7f) << shift }
            shift += 7
            if shift >= 70, byte & 0x80 != 0 { throw .overlongLEB128(offset: start) }
        } while byte & 0x80 != 0
        if shift < 64, byte & 0x40 != 0 { result |= ~0 << shift }
        offset = position
        return Int64(bitPattern: result)
    }

    /// The offsets of the NUL-terminated string at the position (terminator excluded); the position moves past
    /// the terminator.
    @inlinable
    @usableFromInline
    package mutating func readCStringRange() throws(ByteCursorFailure) -> Range<Int> {
        let start = offset
        guard start >= 0, start < bytes.count else { throw .truncated(needed: 1, offset: start) }
        guard let end = bytes.firstIndex(of: 0, from: start) else { throw .unterminated(offset: start) }
        offset = end + 1
        return start..<end
    }
}
