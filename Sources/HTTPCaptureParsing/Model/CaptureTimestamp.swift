import APMInspectCore
import ByteAccess

/// A lenient RFC 3339 / ISO 8601 reader for the timestamp flavours HTTP exporters write.
///
/// Accepts 0–9 fraction digits, `Z`, `±hh:mm`, `±hhmm`, `±hh` or no zone at all (read as UTC and flagged), and a
/// space instead of `T`. `ISO8601DateFormatter` rejects several of these, so it is not used.
package struct CaptureTimestamp: Sendable, Equatable {
    /// Seconds since 1970-01-01T00:00:00Z.
    package var secondsSince1970: Double
    /// True when the text had no zone and UTC was assumed.
    package var zoneMissing: Bool

    package init(secondsSince1970: Double, zoneMissing: Bool = false) {
        self.secondsSince1970 = secondsSince1970
        self.zoneMissing = zoneMissing
    }

    /// Parses `text`; nil when it is not a timestamp.
    package init?(_ text: String) {
        var parsed: CaptureTimestamp?
        var copy = text
        copy.withBorrowedUTF8 { parsed = Self.parse($0) }
        guard let parsed else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: BorrowedBytes) -> CaptureTimestamp? {
        var i = 0
        let n = bytes.count
        while i < n, bytes[unchecked: i] == 0x20 { i += 1 }
        func number(_ count: Int) -> Int? {
            guard i + count <= n else { return nil }
            var value = 0
            for k in i..<(i + count) {
                let c = bytes[unchecked: k]
                guard c >= 0x30, c <= 0x39 else { return nil }
                value = value * 10 + Int(c &- 0x30)
            }
            i += count
            return value
        }
        func skip(_ byte: UInt8) -> Bool {
            if i < n, bytes[unchecked: i] == byte {
                i += 1
                return true
            }
            return false
        }
        guard let year = number(4) else { return nil }
        let extended = skip(0x2D)
        guard let month = number(2) else { return nil }
        if extended, !skip(0x2D) { return nil }
        guard let day = number(2) else { return nil }
        guard i < n, bytes[unchecked: i] == 0x54 || bytes[unchecked: i] == 0x74 || bytes[unchecked: i] == 0x20 else {
            return nil
        }
        i += 1
        guard let hour = number(2) else { return nil }
        _ = skip(0x3A)
        guard let minute = number(2) else { return nil }
        _ = skip(0x3A)
        let second = number(2) ?? 0
        var fraction = 0.0
        if i < n, bytes[unchecked: i] == 0x2E || bytes[unchecked: i] == 0x2C {
            i += 1
            var scale = 0.1
            var digits = 0
            while i < n, bytes[unchecked: i] >= 0x30, bytes[unchecked: i] <= 0x39 {
                if digits < 9 { fraction += Double(bytes[unchecked: i] &- 0x30) * scale }
                scale /= 10
                digits += 1
                i += 1
            }
            if digits == 0 { return nil }
        }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 60 else {
            return nil
        }
        var offset = 0
        var zoneMissing = false
        if i < n, bytes[unchecked: i] == 0x5A || bytes[unchecked: i] == 0x7A {
            i += 1
        } else if i < n, bytes[unchecked: i] == 0x2B || bytes[unchecked: i] == 0x2D {
            let sign = bytes[unchecked: i] == 0x2D ? -1 : 1
            i += 1
            guard let hours = number(2) else { return nil }
            _ = skip(0x3A)
            let minutes = number(2) ?? 0
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            zoneMissing = true
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset) + fraction
        return CaptureTimestamp(secondsSince1970: seconds, zoneMissing: zoneMissing)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        CivilDate(year: year, month: month, day: day).daysSince1970
    }

    /// Renders seconds since 1970 as ISO 8601 UTC with milliseconds (`2024-01-02T03:04:05.678Z`).
    package static func iso8601(_ secondsSince1970: Double) -> String {
        guard secondsSince1970.isFinite, abs(secondsSince1970) < 1e12 else { return "" }
        let millis = Int64(saturating: (secondsSince1970 * 1000).rounded())
        var days = millis / 86_400_000
        var rest = millis % 86_400_000
        if rest < 0 {
            rest += 86_400_000
            days -= 1
        }
        let date = CivilDate(daysSince1970: Int(days))
        let (year, month, day) = (date.year, date.month, date.day)
        let ms = Int(rest)
        if (0...9999).contains(year) {
            // Written into the string's storage: the interpolated form cost 7,500 instructions a call, and a pcap
            // stamps every transaction and DNS query.
            return String(utf8Capacity: 24) { out in
                let hour = ms / 3_600_000
                let (minute, second) = (ms / 60_000 % 60, ms / 1000 % 60)
                CivilDate.writeDateTime(date, hour: hour, minute: minute, second: second, into: &out)
                out.append(0x2E)
                CivilDate.writeDigits(ms % 1000, width: 3, into: &out)
                out.append(0x5A)
            }
        }
        // Zeros before the whole text, a minus sign included, as years out of range have always been written.
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: Swift.max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(ms / 3_600_000, 2)):"
            + "\(pad(ms / 60_000 % 60, 2)):\(pad(ms / 1000 % 60, 2)).\(pad(ms % 1000, 3))Z"
    }
}
