import APMInspectCore
import Testing

@testable import PowerLogReading

/// PowerLog's seconds become timestamps from their fields (no text made and parsed): the same fields and the same
/// double as the text would give, for every kind of value a database may hold.
@Suite struct PowerLogTimestampTests {
    /// The reference: the text `YYYY-MM-DDTHH:MM:SS.mmm±HH:MM` of the same instant, parsed (what the reader did
    /// before it made the fields directly).
    static func byText(_ seconds: Double, utcOffset: Int) -> AppleTimestamp? {
        let local = seconds + Double(utcOffset)
        guard local.isFinite, local > -62_135_596_800, local < 253_402_300_800,
            (-18 * 3600...18 * 3600).contains(utcOffset)
        else { return nil }
        let millis = Int64(saturating: (local * 1000).rounded(.down))
        let (quotient, remainder) = millis.quotientAndRemainder(dividingBy: 1000)
        let (second, milli) = remainder < 0 ? (quotient - 1, remainder + 1000) : (quotient, remainder)
        let magnitude = abs(utcOffset)
        let zone =
            (utcOffset < 0 ? "-" : "+") + CivilDate.padded(magnitude / 3600, 2) + ":"
            + CivilDate.padded(magnitude % 3600 / 60, 2)
        return AppleTimestamp(CivilDate.isoDateTime(secondsSince1970: second) + "." + CivilDate.padded(milli, 3) + zone)
    }

    @Test func fieldsEqualTheParsedText() {
        var generator = SystemRandomNumberGenerator()
        let offsets = [
            0, 3600, -4 * 3600, 5 * 3600 + 1800, -(9 * 3600 + 30 * 60), 19_800, 45, -59, 18 * 3600, -18 * 3600,
        ]
        var values: [Double] = [
            0, -0.0005, 0.0005, 1_639_633_200.123, 1_639_633_200.9999, -1, -86_400.5, 253_402_300_799.999,
            -62_135_596_799.5, 978_307_200, 1e9 + 0.1, 1_700_000_000.25,
        ]
        for _ in 0..<5_000 {
            values.append(Double.random(in: -62_135_500_000...253_402_200_000, using: &generator))
            values.append(Double(Int64.random(in: 0...2_000_000_000, using: &generator)) + Double.random(in: 0..<1))
        }
        var compared = 0
        for value in values {
            for offset in offsets {
                let fast = AppleTimestamp.fromSeconds(value, utcOffset: offset)
                let text = Self.byText(value, utcOffset: offset)
                #expect(fast == text, "\(value) at \(offset)")
                #expect(fast?.iso8601 == text?.iso8601)
                if fast != nil { compared += 1 }
            }
        }
        #expect(compared > 90_000)
        // Outside years 1-9999, non-finite values and offsets past 18 hours give nothing, as before.
        for bad in [Double.nan, .infinity, -.infinity, 1e300, -1e300] {
            #expect(AppleTimestamp.fromSeconds(bad, utcOffset: 0) == nil)
        }
        #expect(AppleTimestamp.fromSeconds(0, utcOffset: 18 * 3600 + 1) == nil)
    }

    @Test func isoDateTimeMatchesThePaddedFields() {
        for seconds: Int64 in [0, -1, 86_399, 86_400, 1_639_633_200, 253_402_300_799, -62_135_596_800, 951_782_400] {
            let (quotient, remainder) = seconds.quotientAndRemainder(dividingBy: 86_400)
            let (days, second) = remainder < 0 ? (quotient - 1, remainder + 86_400) : (quotient, remainder)
            let date = CivilDate(daysSince1970: Int(days))
            let expected =
                date.isoDate + "T" + CivilDate.padded(second / 3600, 2) + ":" + CivilDate.padded(second % 3600 / 60, 2)
                + ":" + CivilDate.padded(second % 60, 2)
            #expect(CivilDate.isoDateTime(secondsSince1970: seconds) == expected)
        }
        // Years past four digits, and before year 0, keep the general path.
        #expect(CivilDate.isoDateTime(secondsSince1970: 300_000_000_000).hasPrefix("11476-"))
        #expect(CivilDate.isoDateTime(secondsSince1970: -62_200_000_000).hasPrefix("-0002-"))
    }
}
