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
        let milliseconds = Int(milli)
        let digits = (milliseconds / 100, milliseconds / 10 % 10, milliseconds % 10)
        // The sum the parser makes of `0.d₁d₂d₃`, in its order: a tenth, then a tenth of that, and so on.
        var scale = 0.1
        var fraction = 0.0 + Double(digits.0) * scale
        scale /= 10
        fraction += Double(digits.1) * scale
        scale /= 10
        fraction += Double(digits.2) * scale
        return AppleTimestamp(
            secondsSince1970: Double(second) + fraction - Double(offset),
            utcOffsetSeconds: offset,
            date: CivilDate(daysSince1970: Int(clamping: days)),
            hour: Int(daySecond / 3600),
            minute: Int(daySecond % 3600 / 60),
            second: Int(daySecond % 60),
            fractionDigits: millisecondTexts[milliseconds]
        )
    }
}

/// `"000"` to `"999"`: three-digit strings are stored inline, so a timestamp made a million times allocates none.
private let millisecondTexts: [String] = (0..<1000).map { value in
    String(
        decoding: [value / 100, value / 10 % 10, value % 10].map { UInt8(truncatingIfNeeded: 0x30 + $0) },
        as: UTF8.self
    )
}
