import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

/// Issue 42, class 5: a browser that writes `content.size: 0` with the whole body in `content.text`.
///
/// The body's length comes from the text (base64 decoded when `encoding` is `base64`, UTF-8 bytes otherwise); the 0 as written
/// is kept in `extensions` under `response.content.size`.
@Suite struct HARContentTextSizeTests {
    private static func har(_ content: String, bodySize: Int = 0) -> [UInt8] {
        let text = """
            {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "605.1.15"}, "entries": [
             {"startedDateTime": "2024-05-02T09:14:03.512Z", "time": 48.2,
              "request": {"method": "GET", "url": "https://static.example.com/app/config.json",
                          "httpVersion": "HTTP/2", "headers": [], "headersSize": -1, "bodySize": 0},
              "response": {"status": 200, "statusText": "", "httpVersion": "HTTP/2", "headers": [],
                           "content": \(content), "redirectURL": "", "headersSize": -1, "bodySize": \(bodySize)},
              "cache": {}, "timings": {"blocked": 0.4, "dns": -1, "connect": -1, "ssl": -1, "send": 0.1, "wait": 40.5,
                                       "receive": 7.2}}]}}
            """
        return Array(text.utf8)
    }

    private static func read(_ content: String, bodySize: Int = 0) throws -> HTTPTransaction {
        let result = try HTTPCaptureReader().read(har(content, bodySize: bodySize))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        return try #require(result.capture.transactions.first)
    }

    @Test func textCountsInUTF8Bytes() throws {
        // 24 characters, 28 bytes: "é", "€" and the escaped "ü" take more than one.
        let t = try Self.read(
            #"{"size": 0, "mimeType": "application/json", "text": "{\"city\":\"Z\u00fcrich\",\"€\":1é}"}"#
        )
        #expect(t.sizes.decoded == 28)
        #expect(t.extensions["response.content.size"] == .number("0"))
        #expect(t.sizes.responseBody == 0)
    }

    @Test func base64TextIsDecodedForItsLength() throws {
        // A PNG's first 20 bytes, escaped `\/` and all; "iVBORw0KGgoAAAANSUhEUgAAAAE=" holds 20 bytes.
        let t = try Self.read(
            #"{"size": 0, "mimeType": "image/png", "encoding": "base64", "text": "iVBORw0KGgoAAAANSUhEUgAAAAE="}"#
        )
        #expect(t.sizes.decoded == 20)
        #expect(t.extensions["response.content.size"] == .number("0"))
        let slashes = try Self.read(#"{"size": 0, "encoding": "base64", "text": "\/\/8A\r\n\/w=="}"#)
        #expect(slashes.sizes.decoded == 4)
    }

    @Test func aSizeThatIsNotZeroIsKept() throws {
        let t = try Self.read(#"{"size": 3, "mimeType": "text/plain", "text": "hello"}"#, bodySize: 3)
        #expect(t.sizes.decoded == 3)
        #expect(t.extensions["response.content.size"] == nil)
    }

    @Test func zeroWithoutTextStaysZero() throws {
        let empty = try Self.read(#"{"size": 0, "mimeType": "text/plain", "text": ""}"#)
        #expect(empty.sizes.decoded == 0)
        #expect(empty.extensions["response.content.size"] == nil)
        let none = try Self.read(#"{"size": 0, "mimeType": "text/plain"}"#)
        #expect(none.sizes.decoded == 0)
    }

    /// A streamed read gives the same transaction.
    @Test func streamedReadAgrees() throws {
        let bytes = Self.har(#"{"size": 0, "mimeType": "text/css", "text": "body{margin:0}"}"#)
        let whole = try HTTPCaptureReader().read(bytes).capture.transactions
        var streamed: [HTTPTransaction] = []
        try HTTPCaptureReader().readStream(bytes).forEachTransaction { streamed.append($0) }
        #expect(whole.first?.sizes.decoded == 14)
        #expect(streamed == whole)
    }
}
