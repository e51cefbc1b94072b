#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decodes the text between a JSON string's quotes, resolving escapes.
@usableFromInline
enum JSONStringDecoding {
    @usableFromInline
    static func decode(_ bytes: [UInt8], start: Int, end: Int, hasEscapes: Bool) -> String {
        guard start <= end, end <= bytes.count else { return "" }
        return bytes.withUnsafeBufferPointer {
            decode(UnsafeBufferPointer(rebasing: $0[start..<end]), hasEscapes: hasEscapes)
        }
    }

    /// Decodes the bytes between a string's quotes (invalid UTF-8 repaired, as `String(decoding:as:)` does).
    @usableFromInline
    static func decode(_ source: UnsafeBufferPointer<UInt8>, hasEscapes: Bool) -> String {
        hasEscapes ? unescape(source) : String(decoding: source, as: UTF8.self)
    }

    private static func unescape(_ source: UnsafeBufferPointer<UInt8>) -> String {
        let n = source.count
        guard n > 0, let sourceBase = source.baseAddress else { return "" }
        // Every escape is at least as long as what it stands for (`\\uXXXX` is 6 bytes for at most 3), so the output
        // fits in the input's length. The runs between backslashes (most of a path written with `\\/`) are copied
        // whole; the String initialiser validates and repairs the UTF-8 as `String(decoding:as:)` would.
        return String(unsafeUninitializedCapacity: n) { buffer in
            guard let out = buffer.baseAddress else { return 0 }
            var o = 0
            var i = 0
            while i < n {
                let rest = n - i
                let found = memchr(sourceBase + i, Int32(UInt8(ascii: "\\")), rest)
                let runEnd = found.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - sourceBase } ?? n
                if runEnd > i {
                    (out + o).update(from: sourceBase + i, count: runEnd - i)
                    o += runEnd - i
                    i = runEnd
                }
                guard i < n else { break }
                // A backslash as the last byte is kept as it is.
                guard i + 1 < n else {
                    out[o] = UInt8(ascii: "\\")
                    o += 1
                    i += 1
                    break
                }
                let e = source[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "n"): out[o] = 0x0A
                case UInt8(ascii: "t"): out[o] = 0x09
                case UInt8(ascii: "r"): out[o] = 0x0D
                case UInt8(ascii: "b"): out[o] = 0x08
                case UInt8(ascii: "f"): out[o] = 0x0C
                case UInt8(ascii: "u"):
                    guard let unit = hex4(source, i) else {
                        out[o] = UInt8(ascii: "\\")
                        out[o + 1] = e
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
                        out[o] = byte
                        o += 1
                    }
                    continue
                default:
                    // `\"`, `\\`, `\/`, and unknown escapes keep the escaped byte.
                    out[o] = e
                }
                o += 1
            }
            return o
        }
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
