import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

/// Hostile sizes and shapes, generated here (never committed): many HAR entries, an element with a huge number of
/// attributes, a session nested past the depth limit, an entity bomb.
@Suite struct LargeInputTests {
    /// One HAR entry; `second` (0–59) and `milli` decide where it sorts.
    private static func entry(_ i: Int, second: Int, milli: Int) -> String {
        """
        {"startedDateTime":"2024-01-01T00:00:\(second < 10 ? "0" : "")\(second).\(String(milli + 1000).dropFirst())Z",\
        "time":\(20 + i % 50),"request":{"method":"GET","url":"https://api\(i % 7).example.com/v1/items/\(i)",\
        "httpVersion":"HTTP/1.1","headers":[{"name":"Accept","value":"*/*"}],"queryString":[],"cookies":[],\
        "headersSize":120,"bodySize":0,"_vendor":{"a":{"b":{"c":[\(i)]}}}},"response":{"status":\(i % 13 == 0 ? 503 : 200),\
        "statusText":"OK","httpVersion":"HTTP/1.1","headers":[],"cookies":[],"content":{"size":\(100 + i % 900),\
        "mimeType":"application/json"},"redirectURL":"","headersSize":80,"bodySize":\(100 + i % 900)},"cache":{},\
        "timings":{"blocked":1,"dns":2,"connect":10,"ssl":5,"send":1,"wait":\(3 + i % 40),"receive":3},"_id":\(i)}
        """
    }

    private static func har(_ entries: [String], extra: String = "") -> [UInt8] {
        let head =
            #"{"log":{"version":"1.2","creator":{"name":"gen","version":"1"},"#
            + #""pages":[{"id":"p1","title":"t","pageTimings":{"onLoad":{"deep":[1,{"x":2}]}}}],"#
            + extra + #""entries":["#
        return Array((head + entries.joined(separator: ",\n") + "]}}").utf8)
    }

    @Test func entriesReadOneAtATimeMatchTheFullParse() throws {
        let entries =
            (0..<200).map { Self.entry($0, second: ($0 * 7) % 60, milli: $0 % 1000) }
            + [#"{"startedDateTime":"2024-01-01T00:00:01","request":{"method":"GET","url":"http://x/"}}"#, "7", "{}"]
        let bytes = Self.har(entries, extra: #""_custom":{"a":{"b":{"c":{"d":1}}}},"#)
        let opaque = try HTTPCaptureReader().read(bytes)
        let full = try HARReader().read(JSONDocument(bytes: bytes))
        #expect(opaque.capture == full.0)
        #expect(opaque.diagnostics == full.1)
        #expect(opaque.capture.transactions.count == 201)
        // Vendor fields and log extensions nested below the entry level are kept whole.
        #expect(opaque.capture.extensions["_custom"] == full.0.extensions["_custom"])
        #expect(opaque.capture.pages.first == full.0.pages.first)
        let first = try #require(opaque.capture.transactions.first { $0.extensions["_id"] == .number("5") })
        #expect(first.extensions["request._vendor"] != nil)
        // Diagnostics about an entry point at its line in the file.
        let noZone = try #require(opaque.diagnostics.first { $0.code == .harDateWithoutZone })
        #expect(noZone.location?.line == 201)
    }

    @Test func aHundredThousandEntriesOutOfOrder() throws {
        let count = 100_000
        let entries = (0..<count).map { Self.entry($0, second: $0 % 60, milli: ($0 / 60) % 1000) }
        let result = try HTTPCaptureReader().read(Self.har(entries))
        let transactions = result.capture.transactions
        #expect(transactions.count == count)
        #expect(result.capture.summary.requests == count)
        #expect(result.capture.summary.serverErrors == (0..<count).filter { $0 % 13 == 0 }.count)
        #expect(transactions.indices.allSatisfy { transactions[$0].index == $0 })
        #expect(
            transactions.indices.dropFirst().allSatisfy {
                transactions[$0 - 1].startEpochSeconds <= transactions[$0].startEpochSeconds
            }
        )
        // Every entry is there once.
        let ids = Set(transactions.compactMap { $0.extensions["_id"] })
        #expect(ids.count == count)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func sortingInPlaceMatchesAStableSort() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let n = Int.random(in: 0..<300, using: &generator)
            let transactions = (0..<n).map { k in
                HTTPTransaction(
                    index: k,
                    url: "u\(k)",
                    startEpochSeconds: Bool.random(using: &generator) ? -1 : Double(Int.random(in: 0..<20))
                )
            }
            var sorted = transactions
            HTTPCaptureSorting.sort(&sorted)
            let expected = transactions.enumerated().sorted { a, b in
                let x = a.element.startEpochSeconds
                let y = b.element.startEpochSeconds
                if (x < 0) != (y < 0) { return y < 0 }
                return x != y ? x < y : a.offset < b.offset
            }.map(\.element.url)
            #expect(sorted.map(\.url) == expected)
            #expect(sorted.indices.allSatisfy { sorted[$0].index == $0 })
        }
    }

    // MARK: - Charles XML

    private static func session(_ body: String) -> [UInt8] {
        Array(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<charles-session>\n" + body + "\n</charles-session>\n").utf8
        )
    }

    private static let transaction = """
        <transaction status="COMPLETE" method="GET" protocolVersion="HTTP/1.1" protocol="https" host="example.com" \
        port="443" path="/a" startTimeMillis="1700000000000"><request headers="true" body="false"></request>\
        <response status="200" headers="true" body="false"></response></transaction>
        """

    @Test func threeHundredThousandAttributesAreRefused() throws {
        var tag = #"<transaction status="COMPLETE" method="GET" host="example.com" path="/""#
        for k in 0..<300_000 { tag += " a\(k)=\"v\"" }
        let bytes = Self.session(tag + "></transaction>")
        #expect(bytes.count > 3_000_000)
        let error = #expect(throws: HTTPCaptureError.self) { try CharlesXMLReader().read(bytes) }
        #expect(error?.code == .tooLarge)
        #expect(error?.location?.line == 3)
    }

    @Test func transactionsBeforeAnElementPastTheLimitAreKept() throws {
        var tag = "<note"
        for k in 0...1024 { tag += " a\(k)='>'" }
        let bytes = Self.session(Self.transaction + "\n" + tag + "/>")
        let (capture, diagnostics) = try CharlesXMLReader().read(bytes)
        #expect(capture.transactions.count == 1)
        #expect(capture.transactions.first?.host == "example.com")
        #expect(diagnostics.contains { $0.severity == .warning && $0.code == .charlesMarkupLimit })
    }

    @Test func markupThatIsNotAStartTagIsNotCounted() throws {
        let many = (0..<2000).map { "a\($0)=\"v\"" }.joined(separator: " ")
        let bytes = Self.session(
            "<!-- \(many) -->\n<![CDATA[ <x \(many)> ]]>\n<?pi \(many)?>\n" + Self.transaction
        )
        let (capture, diagnostics) = try CharlesXMLReader().read(bytes)
        #expect(capture.transactions.count == 1)
        #expect(!diagnostics.contains { $0.code == .charlesMarkupLimit })
        #expect(XMLMarkupLimits(maxAttributesPerElement: 5, maxElements: 3).firstExcess(in: bytes) != nil)
        #expect(XMLMarkupLimits(maxAttributesPerElement: 20, maxElements: 10).firstExcess(in: bytes) == nil)
    }

    @Test func entityExpansionStaysRefused() throws {
        var declarations = #"<!ENTITY a "aaaaaaaaaa">"#
        for (name, previous) in zip("bcdefgh", "abcdefg") {
            declarations += "<!ENTITY \(name) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE charles-session [\(declarations)]>
            <charles-session>\(Self.transaction)<transaction host="example.com" path="/&h;"></transaction>\
            </charles-session>
            """
        let (capture, diagnostics) = try CharlesXMLReader().read(Array(text.utf8))
        // The transaction naming the entity is read without it; nothing is expanded.
        #expect(capture.transactions.count == 2)
        #expect(capture.transactions.allSatisfy { $0.url.utf8.count < 100 && !$0.url.contains("aaaa") })
        // The error is in words, the libxml2 number kept beside them.
        let broken = diagnostics.filter { $0.code == .charlesBrokenXML }
        // wording: libxml2's error number is put in words, the number kept beside them.
        #expect(broken.contains { $0.message.contains("an undeclared entity") && $0.message.contains("code 26") })
    }

    @Test func xmlErrorNumbersHaveWords() {
        #expect(XMLErrorWords.describe(76) == "an end tag that does not match the open element (libxml2 code 76)")
        #expect(XMLErrorWords.describe(9999) == "XML syntax error (libxml2 code 9999)")
    }

    // MARK: - Depth

    @Test func aCharlesSessionPastTheDepthLimitGetsOneVerdict() throws {
        let nested = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        let text = #"[{"host":"example.com","times":{"start":"2024-01-01T00:00:00Z"},"x":"# + nested + "}]"
        let bytes = Array(text.utf8)
        // `inspect` asks what the file is; `http` reads it: both say a Charles session nested too deep.
        #expect(HTTPCaptureReader.recognise(bytes) == .charlesSession)
        let error = #expect(throws: HTTPCaptureError.self) { try HTTPCaptureReader().read(bytes) }
        #expect(error?.code == .syntax)
        // wording: the syntax error says it is the depth limit, not broken JSON, that stopped the read.
        #expect(error?.message.contains("nesting deeper than 128 levels") == true)
    }
}
