import APMInspectCore

extension AppleTimestamp {
    /// The instant `seconds` (since 1970 UTC) shown in a zone `utcOffset` seconds east of UTC, to the millisecond.
    ///
    /// Nil outside years 1–9999 or for a non-finite value: hostile databases hold any double, and the conversion to
    /// integers below must never trap.
    static func fromSeconds(_ seconds: Double, utcOffset: Int) -> AppleTimestamp? {
        let local = seconds + Double(utcOffset)
        guard local.isFinite, local > -62_135_596_800, local < 253_402_300_800,
            (-18 * 3600...18 * 3600).contains(utcOffset)
        else {
            return nil
        }
        let millis = Int64(saturating: (local * 1000).rounded(.down))
        let days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let inDay = millis - days * 86_400_000
        let (year, month, day) = civil(days: days)
        let hour = inDay / 3_600_000
        let minute = inDay / 60_000 % 60
        let second = inDay / 1000 % 60
        let milli = inDay % 1000
        let sign = utcOffset < 0 ? "-" : "+"
        let magnitude = abs(utcOffset)
        let text =
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + ".\(pad(milli, 3))\(sign)\(pad(Int64(magnitude / 3600), 2)):\(pad(Int64(magnitude % 3600 / 60), 2))"
        return AppleTimestamp(text)
    }

    /// Year, month and day of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
