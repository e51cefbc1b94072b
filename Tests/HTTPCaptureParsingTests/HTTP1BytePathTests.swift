import ByteAccess
import PropertyBased
import Testing

@testable import HTTPCaptureParsing

/// The start line split, the request-line test and the trimming of header text read bytes where the text is ASCII
/// without CR; they must give the `Character` readings' answers on any line, spaces in runs, CR, CR LF, combining
/// marks and non-ASCII included.
@Suite struct HTTP1BytePathTests {
    private static let pieces = [
        "GET", "M-SEARCH", "get", "HTTP/1.1", "HTTP/1.", "HTTP/2", "200", "404", "+7", "OK", "Not Found", "/x?q=1",
        " ", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{301}", "é", "*", "-", "",
    ]
    private static let lines = Gen.int(in: 0...(pieces.count - 1)).map { pieces[$0] }.array(of: 0...7)

    @Test func startLineSplitAgreesWithTheCharacterReading() async {
        await propertyCheck(input: Self.lines) { pieces in
            let line = pieces.joined()
            #expect(HTTP1StartLine(line) == HTTP1StartLine(byCharacters: line), "\(line.debugDescription)")
        }
    }

    @Test func startLinePieces() {
        let response = HTTP1StartLine("HTTP/1.1 404  Not Found ")
        #expect(response.status == 404)
        #expect(response.version == "HTTP/1.1")
        #expect(response.reason == " Not Found ")
        let request = HTTP1StartLine("  GET /x?q=1 HTTP/1.0")
        #expect(request.method == "GET")
        #expect(request.target == "/x?q=1")
        #expect(request.status == nil)
        #expect(request.version == "HTTP/1.0")
        #expect(HTTP1StartLine("HTTP/1.1 200 ").reason == "")
    }

    @Test func requestLineTestAgreesWithTheCharacterReading() async {
        await propertyCheck(input: Self.lines, Gen.bool) { pieces, withFeed in
            let bytes = Array((pieces.joined() + (withFeed ? "\r\nHost: x\r\n" : "")).utf8)
            let expected = bytes.withBorrowedBytes { HTTP1Message.looksLikeRequestByCharacters($0) }
            #expect(HTTP1Message.looksLikeRequest(bytes) == expected, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func trimmingAgreesWithTheCharacterWalk() async {
        await propertyCheck(input: Self.lines) { pieces in
            let text = pieces.joined()
            #expect(text.trimmingSpaces == text.trimmingSpacesByCharacters, "\(text.debugDescription)")
        }
        #expect(" \t text/html \n".trimmingSpaces == "text/html")
        // CR LF is one Character, not a space: it stays.
        #expect("gzip\r\n".trimmingSpaces == "gzip\r\n")
        #expect(" \u{301}x".trimmingSpaces == " \u{301}x")
    }
}
