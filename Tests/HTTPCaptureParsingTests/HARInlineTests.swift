import APMInspectCore
import Foundation
import Testing

@testable import HTTPCaptureParsing

/// Small HAR documents for single quirks.
@Suite struct HARInlineTests {
    func read(_ text: String) throws -> HTTPCaptureReader.Result {
        try HTTPCaptureReader().read(Array(text.utf8))
    }

    func entry(_ timings: String, time: Double) -> String {
        """
        {"startedDateTime": "2024-01-01T00:00:00Z", "time": \(time),
         "request": {"method": "GET", "url": "https://a.example/x", "httpVersion": "HTTP/1.1", "headers": []},
         "response": {"status": 200, "httpVersion": "HTTP/1.1", "headers": [], "content": {"size": 1, "mimeType": "text/plain"}},
         "timings": {\(timings)}}
        """
    }

    @Test func timeEqualToSumPlusSSLVotesAdditive() throws {
        let e = entry(#""connect": 50, "ssl": 30, "send": 1, "wait": 10, "receive": 1"#, time: 92)
        let capture = try read(#"{"log": {"version": "1.2", "entries": [\#(e)]}}"#).capture
        #expect(capture.transactions[0].provenance.sslIncludedInConnect == false)
        #expect(capture.transactions[0].durations.connect == 50)
        #expect(capture.transactions[0].durations.total == 92)
    }

    @Test func timeEqualToSumKeepsSSLInsideConnect() throws {
        let e = entry(#""connect": 50, "ssl": 30, "send": 1, "wait": 10, "receive": 1"#, time: 62)
        let capture = try read(#"{"log": {"version": "1.2", "entries": [\#(e)]}}"#).capture
        #expect(capture.transactions[0].provenance.sslIncludedInConnect == true)
        #expect(capture.transactions[0].durations.connect == 20)
        #expect(capture.transactions[0].durations.tls == 30)
    }

    @Test func zeroIsARealValueAndNullIsUnknown() throws {
        let e = entry(#""dns": 0, "connect": null, "send": 0, "wait": 0, "receive": 0, "blocked": -1"#, time: 0)
        let t = try read(#"{"log": {"entries": [\#(e)]}}"#).capture.transactions[0]
        #expect(t.durations.dns == 0)
        #expect(t.durations.connect == -1)
        #expect(t.durations.blocked == -1)
        #expect(t.provenance.measured.contains("dns"))
        #expect(t.provenance.unknown.contains("connect"))
    }

    @Test func absurdNumbersNeverReachTheModel() throws {
        let e = entry(#""connect": 1e999, "send": "NaN", "wait": 1e400, "receive": 1"#, time: 1e999)
        let t = try read(#"{"log": {"entries": [\#(e)]}}"#).capture.transactions[0]
        #expect(t.totalReported == -1)
        #expect(t.durations.connect == -1 && t.durations.send == -1 && t.durations.wait == -1)
        #expect(t.provenance.rejected.sorted() == ["connect", "send", "wait"])
        let json = try JSONEncoder().encode(t)
        #expect(!json.isEmpty)
    }

    @Test func brokenLogGivesAClearError() {
        #expect {
            try read(#"{"log": [2, 1, 3] "request:"}"#)
        } throws: { error in
            guard let error = error as? HTTPCaptureError else { return false }
            return error.code == .syntax
        }
    }

    @Test func notAHARIsWrongKind() {
        #expect {
            try read(#"{"something": "else"}"#)
        } throws: { error in
            (error as? HTTPCaptureError)?.code == .wrongKind
        }
    }

    @Test func emptyInputIsEmpty() {
        #expect {
            try HTTPCaptureReader().read([])
        } throws: { error in
            (error as? HTTPCaptureError)?.code == .empty
        }
    }

    @Test func missingLogEntriesGivesAnEmptyCaptureWithAWarning() throws {
        let result = try read(#"{"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}}}"#)
        #expect(result.capture.transactions.isEmpty)
        #expect(result.diagnostics.contains { $0.code == .harMissingEntries })
    }

    @Test func recognisesHARAndCharlesButNotOtherJSON() {
        #expect(HTTPCaptureReader.recognise(Array(#"{"log": {"entries": []}}"#.utf8)) == .httpArchive)
        #expect(HTTPCaptureReader.recognise(Array(#"[{"host": "a", "times": {}}]"#.utf8)) == .charlesSession)
        #expect(HTTPCaptureReader.recognise(Array(#"{"bug_type": "298"}"#.utf8)) == nil)
        #expect(HTTPCaptureReader.recognise(Array("<?xml version=\"1.0\"?><plist/>".utf8)) == nil)
    }

    @Test func protocolNamesAreNormalised() {
        #expect(HTTPTransaction.normalisedProtocol("HTTP/2.0") == "h2")
        #expect(HTTPTransaction.normalisedProtocol("http/2.0") == "h2")
        #expect(HTTPTransaction.normalisedProtocol("h3-29") == "h3")
        #expect(HTTPTransaction.normalisedProtocol("HTTP/3") == "h3")
        #expect(HTTPTransaction.normalisedProtocol("http/1.1") == "http/1.1")
        #expect(HTTPTransaction.normalisedProtocol("HTTP/1.0") == "http/1.0")
        #expect(HTTPTransaction.normalisedProtocol("") == "unknown")
        #expect(HTTPTransaction.normalisedProtocol("spdy/3.1") == "spdy")
    }

    @Test func trafficTypes() {
        #expect(HTTPTransaction.trafficType(mimeType: "text/html; charset=utf-8") == .web)
        #expect(HTTPTransaction.trafficType(mimeType: "application/x-javascript") == .web)
        #expect(HTTPTransaction.trafficType(mimeType: "application/json") == .api)
        #expect(HTTPTransaction.trafficType(mimeType: "application/x-protobuf") == .api)
        #expect(HTTPTransaction.trafficType(mimeType: "image/webp") == .resource)
        #expect(HTTPTransaction.trafficType(mimeType: "font/woff2") == .resource)
        #expect(HTTPTransaction.trafficType(mimeType: "", resourceType: "xhr") == .api)
        #expect(HTTPTransaction.trafficType(mimeType: "application/octet-stream") == .other)
        #expect(HTTPTransaction.trafficType(mimeType: "", method: "POST") == .api)
    }

    @Test func urlParts() {
        let v6 = HTTPTransaction.urlParts("https://user@[::1]:8443/a?b")
        #expect(v6.scheme == "https" && v6.host == "::1" && v6.port == 8443)
        let plain = HTTPTransaction.urlParts("HTTP://Bro.org/")
        #expect(plain.scheme == "http" && plain.host == "bro.org" && plain.port == nil)
    }
}
