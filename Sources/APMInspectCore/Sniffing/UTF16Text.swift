import ByteAccess

/// Text saved as UTF-16 with a byte-order mark, as some Windows tools save reports: transcoded to UTF-8 so the
/// parsers read it like any other report.
package struct UTF16Text: Sendable, Equatable {
    package enum ByteOrder: String, Sendable, Equatable {
        case littleEndian = "UTF-16LE"
        case bigEndian = "UTF-16BE"
    }

    /// The text as UTF-8, without the byte-order mark.
    package var utf8: [UInt8]
    package var byteOrder: ByteOrder
    /// Unpaired surrogates and a trailing odd byte, each replaced with U+FFFD.
    package var replaced: Int

    /// A note for the report's diagnostics: byte offsets in them count the UTF-8 text, not the file.
    package var note: String {
        var text =
            "read as \(byteOrder.rawValue) text (a byte-order mark), transcoded to UTF-8; byte offsets count the UTF-8 text"
        if replaced > 0 { text += "; \(replaced) invalid code units replaced with U+FFFD" }
        return text
    }

    /// Transcodes `bytes` when they start with a UTF-16 byte-order mark (and not a UTF-32 one); nil otherwise.
    ///
    /// The output is at most 1.5 times the input.
    package init?(bytes: [UInt8]) {
        guard bytes.count >= 2 else { return nil }
        if bytes[0] == 0xFF, bytes[1] == 0xFE {
            // FF FE 00 00 is the UTF-32LE mark (or UTF-16LE starting with NUL, which no report does).
            if bytes.count >= 4, bytes[2] == 0, bytes[3] == 0 { return nil }
            byteOrder = .littleEndian
        } else if bytes[0] == 0xFE, bytes[1] == 0xFF {
            byteOrder = .bigEndian
        } else {
            return nil
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 2)
        var replaced = 0
        let little = byteOrder == .littleEndian
        bytes.withBorrowedBytes { buffer in
            func unit(_ i: Int) -> UInt32 {
                little
                    ? UInt32(buffer[unchecked: i]) | UInt32(buffer[unchecked: i + 1]) << 8
                    : UInt32(buffer[unchecked: i]) << 8 | UInt32(buffer[unchecked: i + 1])
            }
            func append(_ scalar: UInt32) {
                switch scalar {
                case 0..<0x80:
                    out.append(UInt8(scalar))
                case 0x80..<0x800:
                    out.append(UInt8(0xC0 | scalar >> 6))
                    out.append(UInt8(0x80 | scalar & 0x3F))
                case 0x800..<0x10000:
                    out.append(UInt8(0xE0 | scalar >> 12))
                    out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                    out.append(UInt8(0x80 | scalar & 0x3F))
                default:
                    out.append(UInt8(0xF0 | scalar >> 18 & 0x07))
                    out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                    out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                    out.append(UInt8(0x80 | scalar & 0x3F))
                }
            }
            var i = 2
            while i + 1 < buffer.count {
                let first = unit(i)
                i += 2
                if first >= 0xD800, first < 0xDC00, i + 1 < buffer.count {
                    let second = unit(i)
                    if second >= 0xDC00, second < 0xE000 {
                        i += 2
                        append(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                        continue
                    }
                }
                if first >= 0xD800, first < 0xE000 {
                    replaced += 1
                    append(0xFFFD)
                } else {
                    append(first)
                }
            }
            if i < buffer.count {
                replaced += 1
                append(0xFFFD)
            }
        }
        utf8 = out
        self.replaced = replaced
    }
}
