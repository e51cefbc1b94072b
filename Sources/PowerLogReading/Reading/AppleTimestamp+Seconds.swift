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
        let (quotient, remainder) = millis.quotientAndRemainder(dividingBy: 1000)
        let (second, milli) = remainder < 0 ? (quotient - 1, remainder + 1000) : (quotient, remainder)
        // The fields `YYYY-MM-DDTHH:MM:SS.mmm±HH:MM` parses to, made directly: the text and its parse cost about
        // 1,300 instructions a timestamp, a seventh of `energy --format json`. The zone is written to the minute,
        // so the offset kept is the minute's; the fraction is summed digit by digit as the parser sums it.
        let magnitude = abs(utcOffset)
        let written = magnitude / 3600 * 3600 + magnitude % 3600 / 60 * 60
        let offset = utcOffset < 0 ? -written : written
        let (dayCount, secondOfDay) = second.quotientAndRemainder(dividingBy: 86_400)
        let (days, daySecond) = secondOfDay < 0 ? (dayCount - 1, secondOfDay + 86_400) : (dayCount, secondOfDay)
        let digits = [Int(milli / 100), Int(milli / 10 % 10), Int(milli % 10)]
        var fraction = 0.0
        var scale = 0.1
        for digit in digits {
            fraction += Double(digit) * scale
            scale /= 10
        }
        return AppleTimestamp(
            secondsSince1970: Double(second) + fraction - Double(offset),
            utcOffsetSeconds: offset,
            date: CivilDate(daysSince1970: Int(clamping: days)),
            hour: Int(daySecond / 3600),
            minute: Int(daySecond % 3600 / 60),
            second: Int(daySecond % 60),
            fractionDigits: String(decoding: digits.map { UInt8(truncatingIfNeeded: 0x30 + $0) }, as: UTF8.self)
        )
    }
}
