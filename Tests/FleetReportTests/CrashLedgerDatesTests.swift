import APMInspectCore
import Testing

@testable import FleetReport

@Suite struct CrashLedgerDatesTests {
    @Test func datesComeBackFieldForFieldAndEqualOnesShareAnId() throws {
        let texts = [
            "2024-03-05 14:22:07.1234 +0100", "2024-03-05 13:22:07.1234 +0000", "2024-03-05 14:22:07.12340 +0100",
            "1969-12-31 23:59:59.00 +0000", "2031-11-30 00:00:00 -0930", "2024-03-05 14:22:07.1234 +0100",
        ]
        let timestamps = try texts.map { try #require(AppleTimestamp($0)) }
        var dates = CrashLedgerDates()
        let ids = timestamps.map { dates.intern($0) }
        // The first and the last are one date; the second is the same instant written in another zone, the third
        // the same with another fraction: distinct, as `AppleTimestamp`'s equality says.
        #expect(ids == [0, 1, 2, 3, 4, 0])
        #expect(dates.count == 5)
        for (timestamp, id) in zip(timestamps, ids) { #expect(dates.date(id) == timestamp) }
        #expect(dates.date(-1) == nil)
        #expect(dates.date(5) == nil)
    }

    @Test func ranksOrderByInstantThenText() throws {
        let texts = ["2024-03-05 14:22:07 +0100", "2024-03-05 13:22:07 +0000", "1999-01-01 00:00:00 +0000"]
        var dates = CrashLedgerDates()
        for text in texts { _ = dates.intern(try #require(AppleTimestamp(text))) }
        // One instant twice: the text decides ("…13:22:07Z"-like before "…14:22:07+01:00"-like by bytes).
        let ranks = dates.ranks()
        #expect(ranks[2] == 0)
        let first = try #require(AppleTimestamp(texts[0])).iso8601
        let second = try #require(AppleTimestamp(texts[1])).iso8601
        #expect((ranks[1] < ranks[0]) == second.utf8.lexicographicallyPrecedes(first.utf8))
        #expect(Set(ranks) == [0, 1, 2])
    }
}
