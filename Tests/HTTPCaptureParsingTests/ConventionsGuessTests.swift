import APMInspectCore
import Foundation
import Testing

@testable import HTTPCaptureParsing

/// The streamed readers and `read` must agree on a HAR file's timing conventions.
///
/// The streamed readers guess the conventions from the creator and start again when the entries prove the guess
/// wrong; `read` decides them in a pass of its own first. Both must give the same transactions, summary and
/// diagnostics, whether the guess was right or not.
@Suite struct ConventionsGuessTests {
    /// One entry: `ssl` and `connect` as given, `time` as given, a `dns` phase of 2 ms unless `dns` is false.
    static func entry(_ i: Int, ssl: Double, connect: Double, time: Double, dns: Bool = true) -> [String: Any] {
        var timings: [String: Any] = [
            "blocked": 1, "connect": connect, "ssl": ssl, "send": 1, "wait": 10, "receive": 5,
        ]
        if dns { timings["dns"] = 2 }
        return [
            "startedDateTime": "2024-01-01T00:00:0\(i).000Z",
            "time": time,
            "request": [
                "method": "GET", "url": "https://api.example/item/\(i)", "httpVersion": "HTTP/1.1",
                "headers": [[String: Any]](), "headersSize": -1, "bodySize": 0,
            ] as [String: Any],
            "response": [
                "status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                "headers": [["name": "Content-Type", "value": "application/json"]],
                "content": ["size": 10, "mimeType": "application/json"] as [String: Any],
                "headersSize": -1, "bodySize": 10,
            ] as [String: Any],
            "timings": timings,
        ]
    }

    static func har(creator: String, _ entries: [[String: Any]]) throws -> [UInt8] {
        let log: [String: Any] = [
            "log": ["version": "1.2", "creator": ["name": creator, "version": "1"], "entries": entries] as [String: Any]
        ]
        return Array(try JSONSerialization.data(withJSONObject: log))
    }

    /// The files: name, bytes, whether ssl is additive, whether connect includes DNS.
    static func cases() throws -> [(String, [UInt8], Bool, Bool)] {
        // Phases other than ssl: blocked 1, dns 2, connect 20, send 1, wait 10, receive 5 = 39 (37 without dns).
        [
            // Named mitmproxy but timed by the HAR 1.2 rule (time = the sum without ssl): the guess is wrong.
            (
                "mitmproxy-nested",
                try har(creator: "mitmproxy", (0..<5).map { entry($0, ssl: 5, connect: 20, time: 39) }), false, false
            ),
            // Named Firefox, one entry with ssl > connect: additive, the guess is wrong.
            (
                "firefox-ssl-above-connect",
                try har(
                    creator: "Firefox",
                    [entry(0, ssl: 5, connect: 20, time: 39)]
                        + (1..<4).map { entry($0, ssl: 30, connect: 20, time: 69) }
                ),
                true, false
            ),
            // mitmproxy as it writes: ssl on top, no dns anywhere; the guess is right.
            (
                "mitmproxy-additive",
                try har(creator: "mitmproxy", (0..<4).map { entry($0, ssl: 5, connect: 20, time: 42, dns: false) }),
                true, true
            ),
            // Named mitmproxy, additive, but with dns: connect does not include DNS, the guess is half wrong.
            (
                "mitmproxy-with-dns",
                try har(creator: "mitmproxy", (0..<4).map { entry($0, ssl: 5, connect: 20, time: 44) }), true, false
            ),
            // Named Chrome, additive by the votes (time = the sum with ssl): the guess is wrong.
            (
                "chrome-additive-votes",
                try har(creator: "Chrome", (0..<4).map { entry($0, ssl: 5, connect: 20, time: 44) }), true, false
            ),
        ]
    }

    @Test func streamAndSummaryAgreeWithReadWhateverTheGuess() throws {
        for (name, bytes, additive, includesDNS) in try Self.cases() {
            let reader = HTTPCaptureReader()
            let full = try reader.read(bytes)
            let t = try #require(full.capture.transactions.first, "\(name)")
            // The conventions decided show in every transaction.
            #expect(t.provenance.sslIncludedInConnect == !additive, "\(name)")
            #expect(t.provenance.connectIncludesDNS == includesDNS, "\(name)")
            #expect(t.durations.tls == 5 || t.durations.tls == 30, "\(name)")
            #expect(t.durations.connect == (additive ? 20 : 15), "\(name)")

            let stream = try reader.readStream(bytes)
            #expect(stream.diagnostics == full.diagnostics, "\(name)")
            #expect(stream.whole == full.capture, "\(name)")
            // A wrong guess restarts the entries: the spool must be emptied and filled again, not doubled.
            try expectSameSpooled(bytes, as: full)

            let summary = try reader.readSummary(bytes)
            var figures = summary.capture.summary
            figures.slowest = full.capture.summary.slowest
            #expect(figures == full.capture.summary, "\(name)")
            #expect(summary.capture.transactions.map(\.url).sorted() == full.capture.transactions.map(\.url).sorted())
        }
    }
}
