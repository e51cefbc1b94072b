extension BorrowedBytes {
    /// The unsigned integer of `size` bytes (1 to 8) at `offset`, in the byte order asked for; nil when it does not
    /// fit in the bytes.
    @inlinable
    @usableFromInline
    package func unsigned(at offset: Int, size: Int, littleEndian: Bool) -> UInt64? {
        guard size >= 1, size <= 8, offset >= 0, size <= base.count - offset else { return nil }
        var value: UInt64 = 0
        if littleEndian {
            var index = size - 1
            while index >= 0 {
                value = value << 8 | UInt64(base[offset + index])
                index -= 1
            }
        } else {
            for index in 0..<size {
                value = value << 8 | UInt64(base[offset + index])
            }
        }
        return value
    }

    /// The `UInt16` at `offset`; nil past the end.
    @inlinable
    @usableFromInline
    package func uint16(at offset: Int, bigEndian: Bool = true) -> UInt16? {
        unsigned(at: offset, size: 2, littleEndian: !bigEndian).map { UInt16(truncatingIfNeeded: $0) }
    }

    /// The `UInt32` at `offset`; nil past the end.
    @inlinable
    @usableFromInline
    package func uint32(at offset: Int, bigEndian: Bool = true) -> UInt32? {
        unsigned(at: offset, size: 4, littleEndian: !bigEndian).map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The `UInt64` at `offset`; nil past the end.
    @inlinable
    @usableFromInline
    package func uint64(at offset: Int, bigEndian: Bool = true) -> UInt64? {
        unsigned(at: offset, size: 8, littleEndian: !bigEndian)
    }

    /// The 8 bytes at `offset` as one little-endian word, for scans that test 8 bytes at a time; nil past the end.
    @inlinable
    @usableFromInline
    package func word(at offset: Int) -> UInt64? {
        guard offset >= 0, 8 <= base.count - offset else { return nil }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// ``word(at:)`` for an offset the caller's loop condition already keeps within `count - 8`: checked in debug
    /// builds only, for the eight-bytes-a-step scans of the JSON writer.
    @inlinable @inline(__always)
    @usableFromInline
    package func word(uncheckedAt offset: Int) -> UInt64 {
        assert(offset >= 0 && offset <= base.count - 8, "word(uncheckedAt:) past the end")
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}
