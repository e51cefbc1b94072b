import Testing

@testable import HTTPCaptureParsing

@Suite struct TimestampTests {
    @Test(arguments: [
        ("2023-03-30T00:00:54.250Z", 1_680_134_454.25, false),
        ("2023-03-29T16:58:59.303-07:00", 1_680_134_339.303, false),
        ("2023-07-25T10:42:01.726810+00:00", 1_690_281_721.72681, false),
        ("2025-11-27T11:56:26+01:00", 1_764_240_986, false),
        ("2026-01-13T15:41:11.497000", 1_768_318_871.497, true),
        ("2014-11-07T20:10:08.1985333+00:00", 1_415_391_008.1985333, false),
        ("2024-03-01T10:00:09.500+0100", 1_709_283_609.5, false),
        ("20240301T100000Z", 1_709_287_200, false),
        ("2024-03-01 10:00:00Z", 1_709_287_200, false),
    ])
    func flavours(text: String, seconds: Double, zoneMissing: Bool) throws {
        let stamp = try #require(CaptureTimestamp(text))
        #expect(abs(stamp.secondsSince1970 - seconds) < 1e-6)
        #expect(stamp.zoneMissing == zoneMissing)
    }

    @Test(arguments: ["", "yesterday", "2024-13-01T00:00:00Z", "2024-01-01", "2024-01-01T10:00:00.Z", "1680134454250"])
    func rejects(text: String) {
        #expect(CaptureTimestamp(text) == nil)
    }

    @Test func rendersISO() {
        #expect(CaptureTimestamp.iso8601(1_709_287_200.5) == "2024-03-01T10:00:00.500Z")
        #expect(CaptureTimestamp.iso8601(0) == "1970-01-01T00:00:00.000Z")
        #expect(CaptureTimestamp.iso8601(.nan) == "")
    }
}

@Suite struct SummaryTests {
    @Test func nearestRankPercentiles() {
        let p = HTTPSummary.Percentiles(values: (1...100).map(Double.init).reversed())
        #expect(p.n == 100)
        #expect(p.p50 == 50)
        #expect(p.p90 == 90)
        #expect(p.p99 == 99)
        #expect(p.max == 100)
        let one = HTTPSummary.Percentiles(values: [7])
        #expect(one.p50 == 7 && one.p99 == 7)
        let none = HTTPSummary.Percentiles(values: [])
        #expect(none.n == 0 && none.p50 == -1)
        let three = HTTPSummary.Percentiles(values: [10, 30, 20])
        #expect(three.p50 == 20)
        #expect(three.p90 == 30)
    }

    func transaction(host: String, status: Int?, total: Double, cached: Bool = false, error: String? = nil)
        -> HTTPTransaction
    {
        var t = HTTPTransaction(host: host, status: status, error: error, fromCache: cached)
        t.outcome = status == nil ? .unknown : HTTPTransaction.outcome(status: status, error: error, hasResponse: true)
        t.durations.total = total
        t.durations.dns = host == "a" ? 5 : -1
        t.sizes.transfer = 100
        return t
    }

    @Test func ratesExcludeCachedAndPhasesCountOnlyKnownValues() {
        let transactions = [
            transaction(host: "a", status: 200, total: 10),
            transaction(host: "a", status: 404, total: 20),
            transaction(host: "b", status: 500, total: 30),
            transaction(host: "b", status: 0, total: 5, error: "timeout"),
            transaction(host: "b", status: 200, total: 1, cached: true),
            transaction(host: "c", status: nil, total: -1),
        ]
        let summary = HTTPSummary(transactions: transactions)
        #expect(summary.requests == 6)
        #expect(summary.cached == 1)
        #expect(summary.httpErrorRate == 2.0 / 3.0)
        #expect(summary.networkErrorRate == 0.2)
        #expect(summary.networkErrors == 1)
        #expect(summary.unknownOutcome == 1)
        #expect(summary.overall.total.n == 4)
        #expect(summary.overall.dns.n == 2)
        #expect(summary.slowest == [2, 1, 0, 3])
        let b = summary.hosts.first { $0.host == "b" }
        #expect(b?.requests == 3)
        #expect(b?.cached == 1)
        #expect(b?.transferBytes == 300)
        #expect(b?.phases.total.n == 2)
        #expect(summary.hosts.first?.host == "b")
    }
}
