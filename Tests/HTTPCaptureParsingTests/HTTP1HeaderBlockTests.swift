import ByteAccess
import PropertyBased
import Testing

@testable import HTTPCaptureParsing

/// The header block is cut on its bytes where a line is ASCII; it must give what the reading by `String` and
/// `Character` that it replaced gave, on any block: folds, bare LF, stray CR, combining marks, lines without colon.
@Suite struct HTTP1HeaderBlockTests {
    /// The reading the byte parser replaced: the block decoded whole, split on LF, each line cut by `Character`.
    private static func reference(_ block: [UInt8]) -> (String, [HTTPTransaction.Header]) {
        let text = String(decoding: block, as: UTF8.self)
        var lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line[...], as: UTF8.self)
        }
        let startLine = lines.isEmpty ? "" : lines.removeFirst()
        var headers: [HTTPTransaction.Header] = []
        for line in lines {
            if let first = line.first, first == " " || first == "\t", var last = headers.popLast() {
                last.value += " " + line.trimmingSpaces
                headers.append(last)
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                HTTPTransaction.Header(
                    name: String(line[..<colon]).trimmingSpaces,
                    value: String(line[line.index(after: colon)...]).trimmingSpaces
                )
            )
        }
        return (startLine, headers)
    }

    private static func parse(_ block: [UInt8]) -> (String, [HTTPTransaction.Header]) {
        block.withBorrowedBytes { HTTP1HeaderBlock.parse($0) }
    }

    private static let pieces = [
        "GET / HTTP/1.1", "HTTP/1.1 200 OK", "Host", "content-LENGTH", ":", ": ", " ", "\t", "\r\n", "\n", "\r", "x",
        "gzip", "\u{301}", "é", ":\u{301}", " \u{301}", "\u{FF}", "", "hTTp/", "HTTP/", "/\u{301}",
    ]
    private static let blocks = Gen.int(in: 0...(pieces.count - 1)).map { pieces[$0] }.array(of: 0...12)

    @Test func agreesWithTheStringReading() async {
        await propertyCheck(input: Self.blocks, Gen.bool) { pieces, invalidByte in
            var block = Array(pieces.joined().utf8)
            // A byte that is not UTF-8 at all, in the middle: decoding must repair it alike.
            if invalidByte { block.insert(0xC3, at: block.count / 2) }
            let (line, headers) = Self.parse(block)
            let (expectedLine, expectedHeaders) = Self.reference(block)
            #expect(line == expectedLine, "\(String(decoding: block, as: UTF8.self).debugDescription)")
            #expect(headers == expectedHeaders, "\(String(decoding: block, as: UTF8.self).debugDescription)")
        }
    }

    @Test func statusLineNameAgreesWithTheCharacterReading() async {
        await propertyCheck(input: Self.blocks) { pieces in
            let line = pieces.joined()
            #expect(HTTPSyntax.startsWithHTTPName(line: line) == HTTPSyntax.startsWithHTTPName(line[...]))
        }
        #expect(HTTPSyntax.startsWithHTTPName(line: "hTtP/1.1 200 ok"))
        #expect(HTTPSyntax.startsWithHTTPName(line: "HTTP/"))
        #expect(!HTTPSyntax.startsWithHTTPName(line: "HTTP"))
        // A combining mark joins the slash: the fifth Character is not `/`.
        #expect(!HTTPSyntax.startsWithHTTPName(line: "HTTP/\u{301}1.1 200"))
    }

    @Test func foldsOddCaseAndMissingColons() {
        let block = Array(
            "HTTP/1.1 200 OK\r\ncOnTeNt-TyPe :  text/html \r\nX-Long: a\r\n \t b \r\n\tc\r\nno colon here\r\nEmpty:\r\n::\n"
                .utf8
        )
        let (line, headers) = Self.parse(block)
        #expect(line == "HTTP/1.1 200 OK")
        #expect(
            headers == [
                HTTPTransaction.Header(name: "cOnTeNt-TyPe", value: "text/html"),
                HTTPTransaction.Header(name: "X-Long", value: "a b c"),
                HTTPTransaction.Header(name: "Empty", value: ""),
                HTTPTransaction.Header(name: "", value: ":"),
            ]
        )
        #expect(HTTPTransaction.headerValue("content-type", in: headers) == "text/html")
        // A fold before any field is a line of its own.
        let (_, leading) = Self.parse(Array("GET / HTTP/1.1\n  Host: a\n".utf8))
        #expect(leading == [HTTPTransaction.Header(name: "Host", value: "a")])
    }

    @Test func hostileBlocks() {
        // No line end at all: the whole block is the start line.
        #expect(Self.parse(Array("GET / HTTP/1.1".utf8)) == ("GET / HTTP/1.1", []))
        #expect(Self.parse([]) == ("", []))
        // A megabyte-long value, and a NUL and DEL inside one: kept as they are.
        let huge = String(repeating: "v", count: 1 << 20)
        let (_, headers) = Self.parse(Array("HTTP/1.1 200 OK\r\nX-Huge: \(huge)\r\nX-Odd: a\u{0}b\u{7F}\r\n".utf8))
        #expect(headers.first?.value.utf8.count == 1 << 20)
        #expect(headers.last?.value == "a\u{0}b\u{7F}")
        // Only line ends.
        #expect(Self.parse(Array("\r\n\r\n\n\r".utf8)) == ("", []))
    }

    @Test func aTruncatedHeaderBlockIsCutNotRead() {
        let stream = Array("GET /a HTTP/1.1\r\nHost: example.com\r\nAccept: */*".utf8)
        let messages = HTTP1Message.parseAll(stream, isResponse: false, maxDecoded: 1 << 20)
        #expect(messages.count == 1)
        #expect(messages.first?.complete == false)
        #expect(messages.first?.headers.isEmpty == true)
        #expect(messages.first?.startLine == "GET /a HTTP/1.1")
    }
}
