/// Decodes the text between a JSON string's quotes, resolving escapes.
enum JSONStringDecoding {
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
        var out: [UInt8] = []
        out.reserveCapacity(source.count)
        var i = 0
        let n = source.count
        while i < n {
            let b = source[i]
            guard b == UInt8(ascii: "\\"), i + 1 < n else {
                out.append(b)
                i += 1
                continue
            }
            let e = source[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard let unit = hex4(source, i) else {
                    out.append(contentsOf: [UInt8(ascii: "\\"), e])
                    continue
                }
                i += 4
                var scalarValue = UInt32(unit)
                if (0xD800..<0xDC00).contains(unit), i + 5 < n + 0, i + 1 < n, source[i] == UInt8(ascii: "\\"),
                    source[i + 1] == UInt8(ascii: "u"), let low = hex4(source, i + 2), (0xDC00..<0xE000).contains(low)
                {
                    scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    i += 6
                }
                let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                // `\"`, `\\`, `\/`, and unknown escapes keep the escaped byte.
                out.append(e)
            }
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
