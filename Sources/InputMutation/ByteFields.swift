/// Bounds-checked reads and writes of fixed-width integers in byte arrays.
enum ByteFields {
    /// The unsigned integer of `width` bytes (1…8) at `offset`, or nil past the end.
    static func read(_ bytes: [UInt8], at offset: Int, width: Int, bigEndian: Bool) -> UInt64? {
        guard width >= 1, width <= 8, offset >= 0, offset <= bytes.count - width else { return nil }
        var value: UInt64 = 0
        for k in 0..<width {
            let byte = UInt64(bytes[bigEndian ? offset + k : offset + width - 1 - k])
            value = value << 8 | byte
        }
        return value
    }

    /// Writes the low `width` bytes of `value` at `offset`; does nothing past the end.
    static func write(_ value: UInt64, into bytes: inout [UInt8], at offset: Int, width: Int, bigEndian: Bool) {
        guard width >= 1, width <= 8, offset >= 0, offset <= bytes.count - width else { return }
        for k in 0..<width {
            let byte = UInt8(truncatingIfNeeded: value >> (8 * UInt64(k)))
            bytes[bigEndian ? offset + width - 1 - k : offset + k] = byte
        }
    }

    /// The value of an ASCII octal field (tar), ignoring spaces and stopping at NUL; nil when not octal.
    static func octal(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64? {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return nil }
        var value: UInt64 = 0
        var digits = 0
        for byte in bytes[range] {
            if byte == 0 { break }
            if byte == 0x20 { continue }
            guard byte >= 0x30, byte <= 0x37, value < (1 << 60) else { return nil }
            value = value << 3 | UInt64(byte - 0x30)
            digits += 1
        }
        return digits > 0 ? value : nil
    }
}
