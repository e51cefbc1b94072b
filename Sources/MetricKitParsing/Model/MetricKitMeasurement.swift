import APMInspectCore

/// A MetricKit measurement as `jsonRepresentation()` writes it: a number and a unit in one string (`"20 sec"`,
/// `"2,000 byte"`, `"20000 ms"`), whose unit text follows the OS version and the device's locale.
///
/// The text is kept as written; ``value`` and ``unit`` are read from it when the number is plain digits with
/// optional grouping commas and a decimal point, which covers the English-locale payloads seen so far.
public struct MetricKitMeasurement: Sendable, Equatable, Codable {
    /// The number, when the text starts with one.
    public var value: Double?
    /// The unit text after the number, as written (`sec`, `secs.`, `byte`, `ms`, `kB`).
    public var unit: String?
    /// The value in seconds (time units) or bytes (size units), when the unit is one this reader knows.
    public var normalized: Double?
    /// `seconds` or `bytes` for ``normalized``.
    public var normalizedUnit: String?
    /// The text as written.
    public var raw: String

    public init(raw: String) {
        self.raw = raw
        let (number, rest) = Self.splitNumber(raw)
        value = number
        let unitText = String(rest).trimmingASCIIWhitespace()
        unit = unitText.isEmpty ? nil : unitText
        if let number, let unit, let (scale, kind) = Self.scales[unit] {
            let scaled = number * scale
            if scaled.isFinite {
                normalized = scaled
                normalizedUnit = kind
            }
        }
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
