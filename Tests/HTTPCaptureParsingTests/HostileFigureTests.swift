import APMInspectCore
import Foundation
import Testing

@testable import HTTPCaptureParsing

/// Times and figures far outside anything real (issue 15): the summary and the models stay defined, so the
/// renderers that draw them get values they can clamp rather than a trap.
@Suite struct HostileFigureTests {
    @Test func percentilesOfNonFiniteValues() {
        let p = HTTPSummary.Percentiles(values: [.infinity, 3, -.infinity, 1e308, 2])
        #expect(p.n == 5)
        #expect(p.p50 == 3)
        #expect(p.max == .infinity)
        let nan = HTTPSummary.Percentiles(values: [.nan, .nan])
        #expect(nan.n == 2)
    }

    @Test func charlesRequestBeginFarOutOfRange() throws {
        // The issue's time: minutes of -2147483649. The session is still read, every figure finite or unknown.
        var text = String(decoding: try Corpus.bytes("charles_session.chlsj"), as: UTF8.self)
        let original = #""requestBegin": "2024-03-01T18:00:00.095+08:00""#
        #expect(text.contains(original))
        text = text.replacingOccurrences(of: original, with: #""requestBegin": "2024-03-01T18:00:-2147483649+08:00""#)
        let capture = try HTTPCaptureReader().read(Array(text.utf8)).capture
        #expect(capture.transactions.count == 3)
        for t in capture.transactions {
            let phases = [
                t.phases.requestStart, t.phases.requestEnd, t.phases.responseStart, t.phases.responseEnd,
                t.durations.total, t.startEpochSeconds,
            ]
            #expect(phases.allSatisfy { !$0.isNaN })
        }
        let summary = capture.summary
        #expect(summary.requests == 3)
        #expect(summary.slowest.allSatisfy { capture.transactions.indices.contains($0) })
    }
}
