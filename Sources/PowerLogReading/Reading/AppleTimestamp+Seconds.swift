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
        let sign = utcOffset < 0 ? "-" : "+"
        let magnitude = abs(utcOffset)
        let text =
            CivilDate.isoDateTime(secondsSince1970: second)
            + ".\(pad(milli, 3))\(sign)\(pad(Int64(magnitude / 3600), 2)):\(pad(Int64(magnitude % 3600 / 60), 2))"
        return AppleTimestamp(text)
    }

    private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        CivilDate.padded(value, width)
    }
}
