import APMInspectCore
import Foundation
import Testing

/// The one date conversion: checked against Foundation's Gregorian calendar (after 1582, where Foundation stops
/// being proleptic) both ways, and at the clamps a hostile timestamp reaches.
@Suite struct CivilDateTests {
    static let days: [Int] = [-100_000, -25_000, -1, 0, 1, 59, 60, 11_016, 19_782, 19_783, 2_932_896]

    @Test(arguments: days)
    func agreesWithFoundationBothWays(day: Int) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let parts = calendar.dateComponents(
            [.year, .month, .day],
            from: Date(timeIntervalSince1970: Double(day) * 86_400)
        )
        let date = CivilDate(daysSince1970: day)
        #expect([date.year, date.month, date.day] == [parts.year, parts.month, parts.day].map { $0 ?? 0 })
        #expect(date.daysSince1970 == day)
    }

    @Test func spellsISODatesWithTheSignBeforeThePadding() {
        #expect(CivilDate(daysSince1970: 0).isoDate == "1970-01-01")
        #expect(CivilDate(daysSince1970: 19_782).isoDate == "2024-02-29")
        #expect(CivilDate(year: -5, month: 3, day: 1).isoDate == "-0005-03-01")
        #expect(CivilDate.padded(7, 3) == "007")
        #expect(CivilDate.padded(-7, 3) == "-007")
        #expect(CivilDate.padded(12_345, 2) == "12345")
    }

    /// The instant before 1970 falls on the day before, not at a negative time of day.
    @Test(arguments: [Int64(-86_401), -1, 0, 1, 1_709_251_199, 1_717_200_000, 253_402_300_799])
    func spellsDateTimesAsFoundationDoes(seconds: Int64) {
        // ISO8601DateFormatter writes UTC unless told otherwise.
        let expected = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(seconds)))
        #expect(CivilDate.isoDateTime(secondsSince1970: seconds) + "Z" == expected)
    }

    @Test func hostileInstantsAreClampedNotTrapped() {
        #expect(CivilDate.isoDateTime(secondsSince1970: .min).hasSuffix("T08:29:52"))
        #expect(CivilDate.isoDateTime(secondsSince1970: .max).hasSuffix("T15:30:07"))
    }

    @Test func hostileDayCountsAreClampedNotTrapped() {
        #expect(CivilDate(daysSince1970: .max) == CivilDate(daysSince1970: CivilDate.dayRange.upperBound))
        #expect(CivilDate(daysSince1970: .min) == CivilDate(daysSince1970: CivilDate.dayRange.lowerBound))
        _ = CivilDate(year: .max, month: .min, day: .max).daysSince1970
    }
}
