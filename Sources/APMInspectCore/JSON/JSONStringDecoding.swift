/// Decodes the text between a JSON string's quotes, resolving escapes.
@usableFromInline
enum JSONStringDecoding {
    @usableFromInline
    static func decode(_ bytes: [UInt8], start: Int, end: Int, hasEscapes: Bool) -> String {
        guard start <= end, end <= bytes.count else { return "" }
        if !hasEscapes {
            return bytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
            }
        }
        return bytes.withUnsafeBufferPointer { unescape(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    private static func unescape(_ source: UnsafeBufferPointer<UInt8>) -> String {
        let n = source.count
        // Every escape is at least as long as what it stands for (`\\uXXXX` is 6 bytes for at most 3), so the output
        // fits in the input's length and is written by index, without an append's checks per byte.
        let out = [UInt8](unsafeUninitializedCapacity: n) { buffer, count in
            var o = 0
            var i = 0
            while i < n {
                let b = source[i]
                guard b == UInt8(ascii: "\\"), i + 1 < n else {
                    buffer[o] = b
                    o += 1
                    i += 1
                    continue
                }
                let e = source[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "n"): buffer[o] = 0x0A
                case UInt8(ascii: "t"): buffer[o] = 0x09
                case UInt8(ascii: "r"): buffer[o] = 0x0D
                case UInt8(ascii: "b"): buffer[o] = 0x08
                case UInt8(ascii: "f"): buffer[o] = 0x0C
                case UInt8(ascii: "u"):
                    guard let unit = hex4(source, i) else {
                        buffer[o] = UInt8(ascii: "\\")
                        buffer[o + 1] = e
                        o += 2
                        continue
                    }
                    i += 4
                    var scalarValue = UInt32(unit)
                    if (0xD800..<0xDC00).contains(unit), i + 1 < n, source[i] == UInt8(ascii: "\\"),
                        source[i + 1] == UInt8(ascii: "u"), let low = hex4(source, i + 2),
                        (0xDC00..<0xE000).contains(low)
                    {
                        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        i += 6
                    }
                    let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
                    UTF8.encode(scalar) { byte in
                        buffer[o] = byte
                        o += 1
                    }
                    continue
                default:
                    // `\"`, `\\`, `\/`, and unknown escapes keep the escaped byte.
                    buffer[o] = e
                }
                o += 1
            }
            count = o
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex4(_ source: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt16? {
        guard at + 4 <= source.count else { return nil }
        var value: UInt16 = 0
        for k in 0..<4 {
            let c = source[at + k]
            let digit: UInt16
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt16(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt16(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt16(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
        }
        return value
    }
}
