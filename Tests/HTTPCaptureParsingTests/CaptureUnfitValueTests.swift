import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

/// A number a HAR entry or a Charles transaction holds that does not fit its field is said and kept, never dropped
/// unsaid (the class closed for crash and Jetsam reports in issue 15).
@Suite struct CaptureUnfitValueTests {
    /// A one-entry HAR with `status`, `bodySize`, `time` and `_serverPort` spelled as given.
    private static func har(status: String, bodySize: String, time: String, port: String) -> [UInt8] {
        let text = """
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
              {"startedDateTime": "2024-03-01T10:00:00.000Z", "time": \(time), "_serverPort": \(port),
               "request": {"method": "GET", "url": "https://api.example.com/v1/items", "httpVersion": "HTTP/1.1",
                           "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
               "response": {"status": \(status), "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [],
                            "cookies": [], "content": {"size": 10, "mimeType": "application/json"},
                            "redirectURL": "", "headersSize": -1, "bodySize": \(bodySize)},
               "cache": {}, "timings": {"send": 1, "wait": 20, "receive": 3}}
            ]}}
            """
        return Array(text.utf8)
    }

    @Test func valuesThatFitAreReadWithoutAWord() throws {
        let result = try HTTPCaptureReader().read(Self.har(status: "200", bodySize: "10", time: "24", port: "443"))
        let (capture, diagnostics) = (result.capture, result.diagnostics)
        let t = try #require(capture.transactions.first)
        #expect(t.status == 200)
        #expect(t.sizes.responseBody == 10)
        #expect(t.totalReported == 24)
        #expect(t.remotePort == 443)
        #expect(!diagnostics.contains { $0.code == .httpUnfitValue })
        // HAR's -1 means unknown: not a finding.
        let unknown = try HTTPCaptureReader().read(Self.har(status: "200", bodySize: "-1", time: "-1", port: "443"))
        #expect(!unknown.diagnostics.contains { $0.code == .httpUnfitValue })
    }

    @Test(arguments: [
        ("1e999", "10", "24", "443", "response.status"),
        ("200", "-7", "24", "443", "response.bodySize"),
        ("200", "99999999999999999999", "24", "443", "response.bodySize"),
        ("200", "10", "1e999", "443", "time"),
        ("200", "10", "-3", "443", "time"),
        ("200", "10", "24", "70000", "_serverPort"),
        ("200", "10", "24", "443.5", "_serverPort"),
    ])
    func aValueThatDoesNotFitIsSaidAndKept(
        status: String,
        bodySize: String,
        time: String,
        port: String,
        key: String
    ) throws {
        let result = try HTTPCaptureReader().read(
            Self.har(status: status, bodySize: bodySize, time: time, port: port)
        )
        let (capture, diagnostics) = (result.capture, result.diagnostics)
        let t = try #require(capture.transactions.first)
        let warnings = diagnostics.filter {
            $0.severity == .warning && $0.code == .httpUnfitValue && $0.location?.keyPath?.hasSuffix(key) == true
        }
        #expect(warnings.count == 1, "\(diagnostics)")
        #expect(t.extensions[key] != nil)
    }

    @Test func charlesNumbersThatDoNotFitAreSaidAndKept() throws {
        let text = """
            [{"status": "COMPLETE", "method": "GET", "protocolVersion": "HTTP/1.1", "scheme": "https",
              "host": "api.example.com", "port": 1e999, "actualPort": -1, "path": "/v1/items", "query": null,
              "times": {"start": "2024-03-01T10:00:00.000+00:00", "end": "2024-03-01T10:00:00.250+00:00"},
              "durations": {"total": -5, "dns": 2, "latency": 99999999999},
              "response": {"status": 200.5}, "totalSize": "lots"}]
            """
        let (capture, diagnostics) = try CharlesJSONReader().read(try JSONDocument(text: text))
        let t = try #require(capture.transactions.first)
        let said = Set(diagnostics.filter { $0.code == .httpUnfitValue }.compactMap { $0.location?.keyPath })
        for key in ["port", "durations.total", "durations.latency", "response.status", "totalSize"] {
            #expect(said.contains { $0.hasSuffix("." + key) }, "\(key) not said: \(said)")
            #expect(t.extensions[key] != nil, "\(key) not kept")
        }
        // -1 is Charles's "unknown": not a finding.
        #expect(!said.contains { $0.hasSuffix(".actualPort") })
        #expect(t.remotePort == nil)
    }

    @Test func charlesSizesThatDoNotFitAreSaidAndKept() throws {
        let text = """
            [{"status": "COMPLETE", "method": "POST", "scheme": "https", "host": "api.example.com",
              "path": "/v1/upload", "times": {"start": "2024-03-01T10:00:00.000+00:00"},
              "request": {"sizes": {"headers": 412, "body": -3}},
              "response": {"status": 201, "sizes": {"headers": 1e300, "body": 2048}}}]
            """
        let (capture, diagnostics) = try CharlesJSONReader().read(try JSONDocument(text: text))
        let t = try #require(capture.transactions.first)
        let said = diagnostics.filter { $0.code == .httpUnfitValue }.compactMap { $0.location?.keyPath }
        #expect(said.sorted() == ["[0].request.sizes.body", "[0].response.sizes.headers"])
        #expect(t.extensions["request.sizes.body"] != nil && t.extensions["response.sizes.headers"] != nil)
        // The sizes that fit are read; those that do not are unknown (-1), not zero.
        #expect(t.sizes.requestHeaders == 412 && t.sizes.responseBody == 2048)
        #expect(t.sizes.requestBody == -1 && t.sizes.responseHeaders == -1)
    }
}
