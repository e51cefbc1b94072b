import APMInspectCore

/// `report.timestamp` in its three spellings: an ISO 8601 string, or an integer of epoch seconds (3.1, 3.2 raw
/// reports) or microseconds (3.3 and later), told apart by magnitude.
enum KSCrashTimestamp {
    /// Integers above this are microseconds: 10^14 seconds is three million years away, 10^14 µs is 1973.
    static let microsecondsThreshold: Int64 = 100_000_000_000_000
    /// Integers above this (and below ``microsecondsThreshold``) are milliseconds: 10^11 s is the year 5138.
    static let millisecondsThreshold: Int64 = 100_000_000_000

    static func date(_ element: JSONElement) -> AppleTimestamp? {
        switch element.kind {
        case .string:
            return element.string.flatMap(AppleTimestamp.init)
        case .number:
            guard let value = element.int64 ?? element.double.map({ Int64(saturating: $0) }), value >= 0 else {
                return nil
            }
            if value >= microsecondsThreshold { return date(seconds: value / 1_000_000, micros: value % 1_000_000) }
            if value >= millisecondsThreshold {
                return date(seconds: value / 1000, micros: (value % 1000) * 1000)
            }
            return date(seconds: value, micros: 0)
        default:
            return nil
        }
    }

    /// The UTC timestamp `seconds` after 1970 (years 1970 to 9999; nil beyond).
    static func date(seconds: Int64, micros: Int64) -> AppleTimestamp? {
        guard seconds >= 0, seconds < 253_402_300_800 else { return nil }
        var text = CivilDate.isoDateTime(secondsSince1970: seconds)
        if micros > 0 { text += "." + CivilDate.padded(micros, 6) }
        return AppleTimestamp(text + "Z")
    }
}
