/// Bounds-checked reads from raw bytes: every accessor returns nil past the end, so garbage never traps.
struct ByteView {
    let buffer: UnsafeRawBufferPointer

    init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
    }

    var count: Int { buffer.count }

    func u8(_ offset: Int) -> UInt8? {
        guard offset >= 0, offset < buffer.count else { return nil }
        return buffer[offset]
    }

    func u16(_ offset: Int, bigEndian: Bool = true) -> UInt16? {
        guard offset >= 0, offset <= buffer.count - 2 else { return nil }
        let a = UInt16(buffer[offset])
        let b = UInt16(buffer[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ offset: Int, bigEndian: Bool = true) -> UInt32? {
        guard offset >= 0, offset <= buffer.count - 4 else { return nil }
        var value: UInt32 = 0
        if bigEndian {
            for i in 0..<4 { value = value << 8 | UInt32(buffer[offset + i]) }
        } else {
            for i in (0..<4).reversed() { value = value << 8 | UInt32(buffer[offset + i]) }
        }
        return value
    }

    func u24(_ offset: Int) -> Int? {
        guard offset >= 0, offset <= buffer.count - 3 else { return nil }
        return Int(buffer[offset]) << 16 | Int(buffer[offset + 1]) << 8 | Int(buffer[offset + 2])
    }

    func u64(_ offset: Int, bigEndian: Bool = true) -> UInt64? {
        guard let a = u32(offset, bigEndian: bigEndian), let b = u32(offset + 4, bigEndian: bigEndian) else {
            return nil
        }
        return bigEndian ? UInt64(a) << 32 | UInt64(b) : UInt64(b) << 32 | UInt64(a)
    }

    /// The bytes `offset ..< offset + length`, clamped to what exists; nil when `offset` is past the end.
    func slice(_ offset: Int, _ length: Int) -> ByteView? {
        guard offset >= 0, length >= 0, offset <= buffer.count else { return nil }
        let end = Swift.min(buffer.count, offset + Swift.min(length, buffer.count))
        return ByteView(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
    }

    /// The bytes from `offset` to the end (empty past the end).
    func suffix(from offset: Int) -> ByteView {
        let start = Swift.min(Swift.max(0, offset), buffer.count)
        return ByteView(UnsafeRawBufferPointer(rebasing: buffer[start..<buffer.count]))
    }

    var array: [UInt8] { [UInt8](buffer) }
}
