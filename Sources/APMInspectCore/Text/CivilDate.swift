import ByteAccess

/// A proleptic Gregorian date and its day count since 1970-01-01 (Howard Hinnant's `civil_from_days` and
/// `days_from_civil`).
///
/// The one conversion of the package: the readers write and read dates without Foundation (KSCrash, PowerLog and
/// capture timestamps, Apple's own timestamps, the fleet report's days, the energy plot's labels), and six copies of
/// this arithmetic had grown before it was shared.
@usableFromInline
package struct CivilDate: Sendable, Equatable {
    @usableFromInline
    package var year: Int
    @usableFromInline
    package var month: Int
    @usableFromInline
    package var day: Int

    /// Day counts are clamped to about ±2.7 million years, so a hostile timestamp cannot overflow the arithmetic.
    @usableFromInline
    package static let dayRange = -1_000_000_000...1_000_000_000

    @usableFromInline
    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` after 1970-01-01 (before it when negative), clamped to ``dayRange``.
    @usableFromInline
    package init(daysSince1970 days: Int) {
        let z = min(max(days, Self.dayRange.lowerBound), Self.dayRange.upperBound) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01; the month is taken as 1 to 12 and the year within ±2 billion (what a reader checked).
    @usableFromInline
    package var daysSince1970: Int {
        let month = min(max(self.month, 1), 12)
        let year = min(max(self.year, -2_000_000_000), 2_000_000_000)
        let day = min(max(self.day, -1_000), 1_000)
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `YYYY-MM-DD`, the year of at least four digits (a negative one with its sign before them).
    @usableFromInline
    package var isoDate: String {
        "\(Self.padded(year, 4))-\(Self.padded(month, 2))-\(Self.padded(day, 2))"
    }

    /// `YYYY-MM-DDTHH:MM:SS` of the instant `seconds` after 1970-01-01 00:00 (before it when negative), without a
    /// zone: the readers and the fleet report each add their own fraction and zone after it.
    @usableFromInline
    package static func isoDateTime(secondsSince1970 seconds: Int64) -> String {
        let (quotient, remainder) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (days, second) = remainder < 0 ? (quotient - 1, remainder + 86_400) : (quotient, remainder)
        let date = CivilDate(daysSince1970: Int(clamping: days))
        let (hour, minute, sec) = (Int(second / 3600), Int(second % 3600 / 60), Int(second % 60))
        guard (0...9999).contains(date.year) else {
            let time = padded(hour, 2) + ":" + padded(minute, 2) + ":" + padded(sec, 2)
            return date.isoDate + "T" + time
        }
        // Written digit by digit: through `String(Int)`, padding and interpolation this cost about a thousand
        // instructions a call, a fifth of `energy --format json` (nine timestamps a battery row).
        return String(utf8Capacity: 19) { out in
            writeDateTime(date, hour: hour, minute: minute, second: sec, into: &out)
        }
    }

    /// Writes `YYYY-MM-DDTHH:MM:SS` (19 bytes) to `out`.
    ///
    /// The year must have at most four digits. Shared by the timestamp writers whose callers produce them by the
    /// million (PowerLog rows, pcap transactions), where `String(Int)` and interpolation cost about a thousand
    /// instructions a call.
    package static func writeDateTime(
        _ date: CivilDate,
        hour: Int,
        minute: Int,
        second: Int,
        into out: inout UTF8Writer
    ) {
        writeDigits(date.year, width: 4, into: &out)
        out.append(0x2D)
        writeDigits(date.month, width: 2, into: &out)
        out.append(0x2D)
        writeDigits(date.day, width: 2, into: &out)
        out.append(0x54)
        writeDigits(hour, width: 2, into: &out)
        out.append(0x3A)
        writeDigits(minute, width: 2, into: &out)
        out.append(0x3A)
        writeDigits(second, width: 2, into: &out)
    }

    /// Writes the last `width` decimal digits of `value` (not negative), zeros first.
    package static func writeDigits(_ value: Int, width: Int, into out: inout UTF8Writer) {
        var divisor = 1
        for _ in 1..<max(width, 1) { divisor *= 10 }
        while divisor > 0 {
            out.append(UInt8(truncatingIfNeeded: 0x30 + value / divisor % 10))
            divisor /= 10
        }
    }

    /// `value` in decimal, zero-padded to `width` digits, the minus sign of a negative value before the zeros.
    @usableFromInline
    package static func padded(_ value: some BinaryInteger, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let zeros = String(repeating: "0", count: max(0, width - digits.count))
        return (value < 0 ? "-" : "") + zeros + digits
    }
}
