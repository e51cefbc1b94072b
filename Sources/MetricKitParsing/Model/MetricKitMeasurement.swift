import APMInspectCore
import ByteAccess

/// A MetricKit measurement as `jsonRepresentation()` writes it: a number and a unit in one string (`"20 sec"`,
/// `"2,000 byte"`, `"20000 ms"`), whose unit text follows the OS version and the device's locale.
///
/// The text is kept as written; ``value`` and ``unit`` are read from it when the number is plain digits with
/// optional grouping commas and a decimal point, which covers the English-locale payloads seen so far.
package struct MetricKitMeasurement: Sendable, Equatable, Codable {
    /// The number, when the text starts with one.
    package var value: Double?
    /// The unit text after the number, as written (`sec`, `secs.`, `byte`, `ms`, `kB`).
    package var unit: String?
    /// The value in seconds (time units) or bytes (size units), when the unit is one this reader knows.
    package var normalized: Double?
    /// `seconds` or `bytes` for ``normalized``.
    package var normalizedUnit: String?
    /// The text as written.
    package var raw: String

    package init(raw: String) {
        self.raw = raw
        let (number, unitText) = Self.plainNumberAndUnit(raw) ?? Self.numberAndUnit(raw)
        value = number
        unit = unitText.isEmpty ? nil : unitText
        if let number, let unit, let (scale, kind) = Self.scales[unit] {
            let scaled = number * scale
            if scaled.isFinite {
                normalized = scaled
                normalizedUnit = kind
            }
        }
    }

    /// The leading number and the unit text after it (white space trimmed), read Character by Character: any text.
    static func numberAndUnit(_ text: String) -> (Double?, String) {
        let (number, rest) = splitNumber(text)
        return (number, String(rest).trimmingASCIIWhitespace())
    }

    /// ``numberAndUnit(_:)`` read from the bytes, for text that is plain ASCII (nil otherwise).
    ///
    /// There each byte is one Character, so the bytes say what the Characters say; the Character walk cost some
    /// 20,000 instructions a figure, most of a metric payload's reading (issue 21).
    static func plainNumberAndUnit(_ text: String) -> (Double?, String)? {
        var text = text
        return text.withBorrowedUTF8 { bytes -> (Double?, String)? in
            guard Self.isPlainASCII(bytes) else { return nil }
            var start = 0
            while start < bytes.count, bytes[unchecked: start] == 0x20 || bytes[unchecked: start] == 0x09 { start += 1 }
            var end = start
            var sawDigit = false
            var commas = 0
            scan: while end < bytes.count {
                switch bytes[unchecked: end] {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
                case UInt8(ascii: "."): break
                // A sign only first: before it nothing was kept (a comma before a digit ends the number).
                case UInt8(ascii: "-") where end == start: break
                case UInt8(ascii: ",") where sawDigit: commas += 1
                default: break scan
                }
                end += 1
            }
            let number = bytes.slice(start..<end)
            guard sawDigit, number.count - commas <= 64,
                let value = Double(Self.withoutCommas(number, count: number.count - commas)), value.isFinite
            else {
                return (nil, Self.trimmed(bytes, from: 0))
            }
            return (value, Self.trimmed(bytes, from: end))
        }
    }

    /// The number's text without its grouping commas (`count` bytes are left), copied once.
    private static func withoutCommas(_ number: BorrowedBytes, count: Int) -> String {
        String(utf8Capacity: count) { out in
            for byte in number where byte != UInt8(ascii: ",") { out.append(byte) }
        }
    }

    /// True when every byte is ASCII and none is a CR: then each byte is one Character.
    private static func isPlainASCII(_ bytes: BorrowedBytes) -> Bool {
        for byte in bytes where byte >= 0x80 || byte == 0x0D { return false }
        return true
    }

    /// The bytes from `start` on without leading and trailing ASCII white space, as `trimmingASCIIWhitespace`.
    private static func trimmed(_ bytes: BorrowedBytes, from start: Int) -> String {
        var lower = max(start, 0)
        var upper = bytes.count
        while lower < upper, isWhitespace(bytes[unchecked: lower]) { lower += 1 }
        while upper > lower, isWhitespace(bytes[unchecked: upper - 1]) { upper -= 1 }
        return bytes.slice(lower..<upper).string
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Reads a leading number with grouping commas (`2,000`), a decimal point and an optional sign.
    private static func splitNumber(_ text: String) -> (Double?, Substring) {
        let trimmed = Substring(text).drop { $0 == " " || $0 == "\t" }
        var digits = ""
        var end = trimmed.startIndex
        var sawDigit = false
        for index in trimmed.indices {
            let c = trimmed[index]
            if c.isASCII, c.isNumber {
                digits.append(c)
                sawDigit = true
            } else if c == "." || (c == "-" && digits.isEmpty) {
                digits.append(c)
            } else if c == ",", sawDigit {
                // A grouping separator: dropped.
            } else {
                end = index
                break
            }
            end = trimmed.index(after: index)
        }
        // A trailing dot belongs to the unit (`secs.` never starts with one, but `20.` would end a number).
        guard sawDigit, digits.utf8.count <= 64, let number = Double(digits), number.isFinite else {
            return (nil, Substring(text))
        }
        return (number, trimmed[end...])
    }

    /// Unit texts seen in payloads and Apple's unit symbols, with their factor to seconds or bytes.
    private static let scales: [String: (Double, String)] = [
        "ms": (0.001, "seconds"), "msec": (0.001, "seconds"), "msecs": (0.001, "seconds"),
        "msecs.": (0.001, "seconds"), "s": (1, "seconds"), "sec": (1, "seconds"), "secs": (1, "seconds"),
        "secs.": (1, "seconds"), "sec.": (1, "seconds"), "min": (60, "seconds"), "mins": (60, "seconds"),
        "hr": (3600, "seconds"), "h": (3600, "seconds"), "µs": (0.000_001, "seconds"), "μs": (0.000_001, "seconds"),
        "byte": (1, "bytes"), "bytes": (1, "bytes"), "B": (1, "bytes"), "kB": (1000, "bytes"), "KB": (1000, "bytes"),
        "MB": (1_000_000, "bytes"), "GB": (1_000_000_000, "bytes"), "TB": (1_000_000_000_000, "bytes"),
    ]
}
