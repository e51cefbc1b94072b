import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

/// Issue 20: `.chlsx` bodies (`<body encoding="plain">` CDATA, base64) are counted, as `sizes.body` is in `.chlsj`.
@Suite struct CharlesXMLBodyTests {
    @Test func corpusSessionCountsItsBodies() throws {
        let capture = try Corpus.read("charles_session.chlsx").capture
        let upload = try #require(capture.transactions.first { $0.method == "POST" })
        // `/9j/4AAQSkZJRgABAQ==`: 18 data characters are 13 bytes.
        #expect(upload.sizes.requestBody == 13)
        // `<![CDATA[{"id":"p-1"}]]>`
        #expect(upload.sizes.responseBody == 12)
        let health = try #require(capture.transactions.first { $0.method == "GET" })
        #expect(health.sizes.responseBody == 7)
        #expect(health.sizes.requestBody == -1)
    }

    private static func session(requestBody: String, responseBody: String) -> [UInt8] {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <charles-session>
            <transaction status="COMPLETE" method="POST" protocolVersion="HTTP/1.1" protocol="https" host="a.example" port="443" path="/p" query="" startTimeMillis="1709281800000" endTimeMillis="1709281800100">
            <request headers="true" body="true">\(requestBody)</request>
            <response status="200" headers="true" body="true">\(responseBody)</response>
            </transaction>
            </charles-session>
            """
        return Array(text.utf8)
    }

    @Test func largeAndWrappedBodiesAreCountedWhole() throws {
        // A CDATA body past the 64 KiB of text the reader keeps, and base64 wrapped at 76 columns without padding.
        let big = String(repeating: "x", count: 200_000)
        let base64 = (0..<100).map { _ in String(repeating: "QUJD", count: 19) }.joined(separator: "\n") + "\nQUI"
        let bytes = Self.session(
            requestBody: "<body encoding=\"base64\">\(base64)</body>",
            responseBody: "<body encoding=\"plain\"><![CDATA[\(big)]]></body>"
        )
        let (capture, _) = try CharlesXMLReader().read(bytes)
        let t = try #require(capture.transactions.first)
        // 100 lines of 76 characters (5700 bytes) and `QUI` (2 bytes).
        #expect(t.sizes.requestBody == 5702)
        #expect(t.sizes.responseBody == 200_000)
    }
}
