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
        let date = CivilDate(daysSince1970: Int(days))
        let hour = inDay / 3_600_000
        let minute = inDay / 60_000 % 60
        let second = inDay / 1000 % 60
        let milli = inDay % 1000
        let sign = utcOffset < 0 ? "-" : "+"
        let magnitude = abs(utcOffset)
        let text =
            "\(date.isoDate)T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + ".\(pad(milli, 3))\(sign)\(pad(Int64(magnitude / 3600), 2)):\(pad(Int64(magnitude % 3600 / 60), 2))"
        return AppleTimestamp(text)
    }

    private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        CivilDate.padded(value, width)
    }
}
