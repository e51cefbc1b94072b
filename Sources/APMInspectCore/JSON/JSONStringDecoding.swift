import ByteAccess

/// Decodes the text between a JSON string's quotes, resolving escapes.
@usableFromInline
enum JSONStringDecoding {
    @usableFromInline
    static func decode(_ bytes: [UInt8], start: Int, end: Int, hasEscapes: Bool) -> String {
        guard start >= 0, start <= end, end <= bytes.count else { return "" }
        return bytes.withBorrowedBytes { decode($0.slice(start..<end), hasEscapes: hasEscapes) }
    }

    /// Decodes the bytes between a string's quotes (invalid UTF-8 repaired, as `String(decoding:as:)` does).
    @usableFromInline
    static func decode(_ source: BorrowedBytes, hasEscapes: Bool) -> String {
        hasEscapes ? unescape(source) : source.string
    }

    private static func unescape(_ source: BorrowedBytes) -> String {
        let n = source.count
        // Every escape is at least as long as what it stands for (`\\uXXXX` is 6 bytes for at most 3), so the output
        // fits in the input's length. The runs between backslashes (most of a path written with `\\/`) are copied
        // whole; the String initialiser validates and repairs the UTF-8 as `String(decoding:as:)` would.
        return String(utf8Capacity: n) { out in
            var i = 0
            while i < n {
                let runEnd = source.firstIndex(of: UInt8(ascii: "\\"), in: i..<n) ?? n
                if runEnd > i {
                    out.append(source.slice(i..<runEnd))
                    i = runEnd
                }
                guard i < n else { break }
                // A backslash as the last byte is kept as it is.
                guard i + 1 < n else {
                    out.append(UInt8(ascii: "\\"))
                    break
                }
                let e = source[unchecked: i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard let unit = hex4(source, i) else {
                        out.append(UInt8(ascii: "\\"))
                        out.append(e)
                        continue
                    }
                    i += 4
                    var scalarValue = UInt32(unit)
                    if (0xD800..<0xDC00).contains(unit), i + 1 < n, source[unchecked: i] == UInt8(ascii: "\\"),
                        source[unchecked: i + 1] == UInt8(ascii: "u"), let low = hex4(source, i + 2),
                        (0xDC00..<0xE000).contains(low)
                    {
                        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                        i += 6
                    }
                    let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
                    UTF8.encode(scalar) { out.append($0) }
                default:
                    // `\"`, `\\`, `\/`, and unknown escapes keep the escaped byte.
                    out.append(e)
                }
            }
        }
    }

    private static func hex4(_ source: BorrowedBytes, _ at: Int) -> UInt16? {
        guard at >= 0, at + 4 <= source.count else { return nil }
        var value: UInt16 = 0
        for k in 0..<4 {
            let c = source[unchecked: at + k]
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
