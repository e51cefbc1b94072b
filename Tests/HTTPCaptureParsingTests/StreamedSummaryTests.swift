import APMInspectCore
import Foundation
import Testing

@testable import HTTPCaptureParsing

/// The text summary built from transactions visited one at a time must say what the summary over every kept
/// transaction says, and stay bounded when a capture goes past the accumulator's limits.
@Suite struct StreamedSummaryTests {
    static let corpusFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Corpus.directory)) ?? []
        return names.filter { !$0.hasSuffix(".md") }.sorted()
    }()

    @Test func corpusIsThere() {
        #expect(Self.corpusFiles.count >= 10)
    }

    @Test(arguments: corpusFiles)
    func streamedEqualsFullOnCorpus(name: String) throws {
        let bytes = try Corpus.bytes(name)
        try expectSameSummary(bytes)
    }

    @Test(arguments: [1, 7, 500, 3000])
    func streamedEqualsFullOnGeneratedHAR(entries: Int) throws {
        try expectSameSummary(Self.har(entries: entries, hosts: 9, seed: UInt64(entries)))
    }

    @Test func streamedEqualsFullOnGeneratedPackets() throws {
        for (_, bytes) in GeneratedCaptures.all { try expectSameSummary(bytes) }
    }

    /// Any visiting order gives the same figures when `order` carries the start-time position.
    @Test func orderDoesNotMatter() throws {
        let full = try HTTPCaptureReader().read(Self.har(entries: 800, hosts: 5, seed: 3)).capture
        var generator = SplitMix(seed: 11)
        let shuffled = full.transactions.shuffled(using: &generator)
        var accumulator = HTTPSummaryAccumulator(limits: .unbounded)
        for transaction in shuffled { accumulator.add(transaction, order: transaction.index) }
        let (summary, slowest, diagnostics) = accumulator.finished()
        #expect(summary == full.summary)
        #expect(slowest.map(\.index) == full.summary.slowest)
        #expect(diagnostics.isEmpty)
    }

    @Test func hostCapFoldsLaterHostsIntoOneRow() throws {
        let bytes = Self.har(entries: 600, hosts: 12, seed: 5)
        var limits = HTTPSummaryAccumulator.Limits()
        limits.maxHosts = 4
        let result = try HTTPCaptureReader().readSummary(bytes, limits: limits)
        let summary = result.capture.summary
        #expect(summary.hosts.count == 5)
        let other = try #require(summary.hosts.first { $0.host == HTTPSummaryAccumulator.otherHosts })
        #expect(summary.hosts.reduce(0) { $0 + $1.requests } == 600)
        // Entries rotate over 12 hosts, so the first 4 seen keep their rows: 8 of every 12 requests are folded.
        #expect(other.requests == 400)
        #expect(result.diagnostics.contains { $0.code == .httpHostsFolded })
        let full = try HTTPCaptureReader().read(bytes).capture.summary
        #expect(summary.overall == full.overall)
        #expect(summary.requests == full.requests)
    }

    @Test func histogramPercentilesStayWithinTheirBound() throws {
        let bytes = Self.har(entries: 2000, hosts: 3, seed: 9)
        var limits = HTTPSummaryAccumulator.Limits()
        limits.exactValues = 100
        let result = try HTTPCaptureReader().readSummary(bytes, limits: limits)
        let full = try HTTPCaptureReader().read(bytes).capture.summary
        #expect(result.diagnostics.contains { $0.code == .httpPercentilesApproximate })
        func near(_ a: HTTPSummary.Percentiles, _ b: HTTPSummary.Percentiles) {
            #expect(a.n == b.n)
            #expect(a.max == b.max)
            for (x, y) in [(a.p50, b.p50), (a.p90, b.p90), (a.p99, b.p99)] {
                #expect(abs(x - y) <= y * PercentileSketch.relativeErrorPercent / 100 + 1e-9, "\(x) vs \(y)")
            }
        }
        let s = result.capture.summary
        for (a, b) in [(s.overall.total, full.overall.total), (s.overall.ttfb, full.overall.ttfb)] { near(a, b) }
        for (a, b) in [(s.overall.dns, full.overall.dns), (s.overall.receive, full.overall.receive)] { near(a, b) }
        for host in s.hosts {
            let exact = try #require(full.hosts.first { $0.host == host.host })
            near(host.phases.total, exact.phases.total)
            #expect(host.requests == exact.requests)
        }
        // Everything else is exact whatever the mode.
        var counts = s
        counts.overall = full.overall
        counts.hosts = full.hosts
        counts.slowest = full.slowest
        #expect(counts == full)
    }

    @Test func sketchHandlesZeroHugeAndNonFiniteValues() {
        var sketch = PercentileSketch()
        for value in [0, 0, 1e-9, 5, 1e300, .infinity, -1, .nan] { sketch.add(value) }
        sketch.switchToHistogram()
        let p = sketch.percentiles
        #expect(p.n == 6)
        #expect(p.p50 == 1e-9 || p.p50 == 0)
        #expect(p.max == .infinity)
        #expect(p.p99 == .infinity)
    }

    /// The slowest list keeps at most the limit, ties broken by start order as the sorted capture does.
    @Test func slowestIsBoundedAndTiesFollowStartOrder() throws {
        let bytes = Self.har(entries: 400, hosts: 2, seed: 1, equalTotals: true)
        let streamed = try HTTPCaptureReader().readSummary(bytes).capture
        let full = try HTTPCaptureReader().read(bytes).capture
        #expect(streamed.transactions.count == HTTPSummary.slowestCount)
        #expect(streamed.transactions.map(\.url) == full.summary.slowest.map { full.transactions[$0].url })
    }

    private func expectSameSummary(_ bytes: [UInt8]) throws {
        let full = try HTTPCaptureReader().read(bytes)
        let streamed = try HTTPCaptureReader().readSummary(bytes)
        var summary = streamed.capture.summary
        #expect(summary.slowest == Array(streamed.capture.transactions.indices))
        summary.slowest = full.capture.summary.slowest
        #expect(summary == full.capture.summary)
        func unnumbered(_ t: HTTPTransaction) -> HTTPTransaction {
            var t = t
            t.index = 0
            return t
        }
        let expected = full.capture.summary.slowest.map { unnumbered(full.capture.transactions[$0]) }
        #expect(streamed.capture.transactions.map(unnumbered) == expected)
        #expect(streamed.diagnostics == full.diagnostics)
        var header = streamed.capture
        header.transactions = full.capture.transactions
        header.summary = full.capture.summary
        #expect(header == full.capture)
    }

    /// A HAR with entries out of start order, some without a start, some from cache, failed or unanswered.
    static func har(entries: Int, hosts: Int, seed: UInt64, equalTotals: Bool = false) -> [UInt8] {
        var random = SplitMix(seed: seed)
        var text = #"{"log":{"version":"1.2","creator":{"name":"gen","version":"1"},"entries":["#
        for i in 0..<entries {
            let host = "h\(i % hosts).example.com"
            let second = Int.random(in: 0..<3600, using: &random)
            let start =
                i % 29 == 3 ? "" : String(format: "2024-03-01T10:%02d:%02d.%03dZ", second / 60, second % 60, i % 1000)
            let dns = i % 5 == 0 ? -1 : Double(Int.random(in: 0...4000, using: &random)) / 100
            let connect = Double(Int.random(in: 0...9000, using: &random)) / 100
            let wait = equalTotals ? 100 : Double(Int.random(in: 1...90000, using: &random)) / 100
            let receive = Double(Int.random(in: 0...3000, using: &random)) / 100
            let total = equalTotals ? 100 : max(0, dns) + connect + wait + receive
            let status = [200, 200, 200, 304, 404, 503, 0][i % 7]
            let cache = i % 11 == 0 ? #"{"beforeRequest":{"lastAccess":"x","eTag":"","hitCount":1}}"# : "{}"
            if i > 0 { text += "," }
            text += #"{"startedDateTime":"\#(start)","time":\#(total),"#
            text += #""request":{"method":"GET","url":"https://\#(host)/r/\#(i)","httpVersion":"HTTP/1.1","#
            text += #""headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"#
            text += #""response":{"status":\#(status),"statusText":"","httpVersion":"HTTP/1.1","headers":[],"#
            text += #""cookies":[],"content":{"size":\#(i * 13 % 5000),"mimeType":"application/json"},"#
            text += #""redirectURL":"","headersSize":-1,"bodySize":\#(i % 3 == 0 ? -1 : i % 900)},"#
            text += #""cache":\#(cache),"timings":{"blocked":-1,"dns":\#(equalTotals ? -1 : dns),"#
            text += #""connect":\#(equalTotals ? 0 : connect),"send":0,"wait":\#(wait),"#
            text += #""receive":\#(equalTotals ? 0 : receive)}}"#
        }
        text += "]}}"
        return Array(text.utf8)
    }
}

/// A small seeded generator, so generated captures are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
