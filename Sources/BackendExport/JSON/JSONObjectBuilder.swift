import APMInspectCore

/// Builds a JSON object member by member, leaving out what is unknown: backends read a missing key and a `null`
/// differently, and most fields here are optional.
struct JSONObjectBuilder {
    private(set) var members: [JSONValue.Member] = []

    var isEmpty: Bool { members.isEmpty }
    var value: JSONValue { .object(members) }

    mutating func add(_ key: String, _ value: JSONValue?) {
        guard let value else { return }
        members.append(JSONValue.Member(key: key, value: value))
    }

    mutating func add(_ key: String, string: String?) {
        guard let string, !string.isEmpty else { return }
        add(key, .string(string))
    }

    mutating func add(_ key: String, object: JSONObjectBuilder) {
        guard !object.isEmpty else { return }
        add(key, object.value)
    }

    mutating func add(_ key: String, integer: (some BinaryInteger)?) {
        guard let integer else { return }
        add(key, .number(String(integer)))
    }

    mutating func add(_ key: String, bool: Bool?) {
        guard let bool else { return }
        add(key, .bool(bool))
    }

    /// `0x` and lower-case hex digits: Sentry's form for addresses.
    mutating func add(_ key: String, address: UInt64?) {
        guard let address else { return }
        add(key, .string(HexValue(address).description))
    }
}

extension AppleTimestamp {
    /// Whole seconds since 1970 (UTC) and the nanoseconds within, from the digits as written; nil before 1970 or
    /// for a value too far out to be a date.
    var unixParts: (seconds: Int64, nanoseconds: Int64)? {
        guard secondsSince1970.isFinite, secondsSince1970 >= 0, secondsSince1970 < 1e11 else { return nil }
        var digits = Array(fractionDigits.utf8.prefix(9))
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let fraction = Double("0." + String(decoding: digits, as: UTF8.self)) ?? 0
        let whole = (secondsSince1970 - fraction).rounded()
        guard whole >= 0, whole < 1e11, let seconds = Int64(exactly: whole) else { return nil }
        while digits.count < 9 { digits.append(0x30) }
        let nanoseconds = digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
        return (seconds, nanoseconds)
    }

    /// Nanoseconds since 1970 as decimal digits: OTLP/JSON's form for a fixed64.
    var unixNanosecondsText: String? {
        guard let parts = unixParts else { return nil }
        let (scaled, overflow) = parts.seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        return String(scaled + parts.nanoseconds)
    }

    /// Seconds since 1970 with the fraction as written: a Sentry timestamp (a number, which is always UTC).
    var unixSecondsText: String? {
        guard let parts = unixParts else { return nil }
        let digits = fractionDigits.prefix(9)
        return digits.isEmpty ? String(parts.seconds) : "\(parts.seconds).\(digits)"
    }
}
