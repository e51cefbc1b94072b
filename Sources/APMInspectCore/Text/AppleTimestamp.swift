import ByteAccess

/// A wall-clock time as Apple's reports write it, with its UTC offset.
///
/// Reads `2016-07-25 19:49:19.19 -0400` (any number of fraction digits, or none), ISO 8601 with `T`, offsets as
/// `-0400`, `-04:00` or `Z`. The instant is kept as seconds since 1970 UTC and the offset as written, so the
/// local time the device showed is never lost; `iso8601` renders it with the offset (and the source's fraction
/// digits), and that is how it is encoded in JSON.
public struct AppleTimestamp: Sendable, Equatable, Hashable {
    /// Seconds since 1970-01-01T00:00:00Z, with the fraction.
    public var secondsSince1970: Double
    /// The offset from UTC written in the report, in seconds (east positive).
    public var utcOffsetSeconds: Int
    /// The local date and time fields as written.
    public var year: Int
    /// The local month as written (1–12).
    public var month: Int
    /// The local day of the month as written.
    public var day: Int
    /// The local hour as written (0–23).
    public var hour: Int
    /// The local minute as written.
    public var minute: Int
    /// The local second as written, without its fraction (``fractionDigits``).
    public var second: Int
    /// The fraction digits as written (`"19"` for `.19`), empty when there were none.
    public var fractionDigits: String

    /// A timestamp from its fields, for a reader that computed them (PowerLog's seconds): the fields
    /// ``init(_:)`` would have read from the same text, without making and parsing the text.
    package init(
        secondsSince1970: Double,
        utcOffsetSeconds: Int,
        date: CivilDate,
        hour: Int,
        minute: Int,
        second: Int,
        fractionDigits: String
    ) {
        self.secondsSince1970 = secondsSince1970
        self.utcOffsetSeconds = utcOffsetSeconds
        self.year = date.year
        self.month = date.month
        self.day = date.day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.fractionDigits = fractionDigits
    }

    /// Parses an Apple or ISO 8601 timestamp; nil when `text` is not one.
    @usableFromInline
    package init?(_ text: String) {
        var utf8 = Array(text.utf8)
        while let last = utf8.last, last == 0x20 || last == 0x09 { utf8.removeLast() }
        var i = 0
        while i < utf8.count, utf8[i] == 0x20 { i += 1 }
        func digits(_ count: Int) -> Int? {
            guard i + count <= utf8.count else { return nil }
            var value = 0
            for k in 0..<count {
                let c = utf8[i + k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                value = value * 10 + Int(c - 0x30)
            }
            i += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < utf8.count, utf8[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2) else {
            return nil
        }
        guard i < utf8.count, utf8[i] == 0x20 || utf8[i] == UInt8(ascii: "T") else { return nil }
        i += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2) else {
            return nil
        }
        var fraction = ""
        var fractionValue = 0.0
        if expect(0x2E) {
            var scale = 0.1
            while i < utf8.count, utf8[i] >= 0x30, utf8[i] <= 0x39 {
                fraction.append(Character(Unicode.Scalar(utf8[i])))
                fractionValue += Double(utf8[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
        }
        while i < utf8.count, utf8[i] == 0x20 { i += 1 }
        var offset = 0
        if i < utf8.count, utf8[i] == UInt8(ascii: "Z") {
            i += 1
        } else if i < utf8.count, utf8[i] == UInt8(ascii: "+") || utf8[i] == UInt8(ascii: "-") {
            let sign = utf8[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let hours = digits(2) else { return nil }
            _ = expect(0x3A)
            guard let minutes = digits(2) else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard i == utf8.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61,
            abs(offset) <= 18 * 3600
        else { return nil }
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fractionValue
        self.secondsSince1970 = local - Double(offset)
        self.utcOffsetSeconds = offset
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.fractionDigits = fraction
    }

    /// ISO 8601 local time with its offset: `2016-07-25T19:49:19.19-04:00`.
    @usableFromInline
    package var iso8601: String {
        guard let length = iso8601Length else { return paddedISO8601 }
        return String(utf8Capacity: length) { fillISO8601(&$0) }
    }

    /// Calls `body` with the UTF-8 bytes of ``iso8601``, made in a buffer on the stack instead of a `String`.
    ///
    /// Every JSON report holds two to four timestamps: built from padded pieces, the string cost more instructions
    /// than the rest of the `.ips` header it sits in (a tenth of writing a JSON crash report's envelope).
    @usableFromInline
    package func withISO8601UTF8<Result>(_ body: (BorrowedBytes) -> Result) -> Result {
        guard let length = iso8601Length else {
            var text = paddedISO8601
            return text.withBorrowedUTF8(body)
        }
        return withScratchUTF8(capacity: length, { fillISO8601(&$0) }, then: body)
    }

    /// The length of ``iso8601`` when every field has exactly the digits its place is padded to (any parsed
    /// timestamp); nil for values set out of those ranges, which ``paddedISO8601`` writes.
    private var iso8601Length: Int? {
        guard (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day), (0...99).contains(hour),
            (0...99).contains(minute), (0...99).contains(second), (-359_999...359_999).contains(utcOffsetSeconds)
        else { return nil }
        return 25 + (fractionDigits.isEmpty ? 0 : 1 + fractionDigits.utf8.count)
    }

    /// Writes ``iso8601`` into `writer`, which has room for ``iso8601Length`` bytes.
    private func fillISO8601(_ writer: inout UTF8Writer) {
        func put(_ byte: UInt8) {
            writer.append(byte)
        }
        func digits(_ value: Int, _ width: Int) {
            var divisor = width == 4 ? 1000 : 10
            while divisor > 0 {
                put(UInt8(truncatingIfNeeded: 0x30 + value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        put(0x2D)
        digits(month, 2)
        put(0x2D)
        digits(day, 2)
        put(0x54)
        digits(hour, 2)
        put(0x3A)
        digits(minute, 2)
        put(0x3A)
        digits(second, 2)
        if !fractionDigits.isEmpty {
            put(0x2E)
            for byte in fractionDigits.utf8 { put(byte) }
        }
        put(utcOffsetSeconds < 0 ? 0x2D : 0x2B)
        let magnitude = utcOffsetSeconds.magnitude
        digits(Int(magnitude / 3600), 2)
        put(0x3A)
        digits(Int(magnitude % 3600 / 60), 2)
    }

    /// ``iso8601`` built from padded pieces: for fields outside the ranges a parsed timestamp has.
    private var paddedISO8601: String {
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        let magnitude = utcOffsetSeconds.magnitude
        let fraction = fractionDigits.isEmpty ? "" : "." + fractionDigits
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + "\(fraction)\(sign)\(pad(magnitude / 3600, 2)):\(pad(magnitude % 3600 / 60, 2))"
    }

    /// Zeros before the whole text, a minus sign included: how fields out of range have always been written.
    private func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        CivilDate(year: year, month: month, day: day).daysSince1970
    }
}

extension AppleTimestamp: Codable {
    /// Reads the JSON form back, as `encode(to:)` writes it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = AppleTimestamp(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a timestamp: \(text)")
        }
        self = value
    }

    /// Writes the JSON form documented in docs/json-output.md.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
