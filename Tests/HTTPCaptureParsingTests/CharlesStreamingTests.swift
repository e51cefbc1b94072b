import APMInspectCore
import Foundation
import Testing

@testable import HTTPCaptureParsing

/// Charles sessions (JSON and XML) are summarised one transaction at a time: the same figures as the full read,
/// with only the slowest transactions kept.
@Suite struct CharlesStreamingTests {
    /// A `.chlsj` of `count` transactions over `hosts` hosts, out of start order, some failed.
    static func chlsj(count: Int, hosts: Int) -> [UInt8] {
        var items: [String] = []
        for i in 0..<count {
            // Starts go back and forth so the file is not in start order.
            let second = (i * 7919) % 3600
            let start = String(format: "2024-03-01T18:%02d:%02d.%03d+08:00", second / 60, second % 60, i % 1000)
            let total = 20 + (i * 37) % 900
            let status = i % 13 == 0 ? "FAILED" : "COMPLETE"
            let response = i % 13 == 0 ? "" : #","response":{"status":200,"sizes":{"headers":120,"body":\#(i % 5000)}}"#
            let host = "h\(i % hosts).example.com"
            var item = #"{"status":"\#(status)","method":"GET","protocolVersion":"HTTP/1.1","scheme":"https","#
            item += #""host":"\#(host)","port":443,"path":"/items/\#(i)","query":null,"#
            item += #""times":{"start":"\#(start)"},"durations":{"total":\#(total),"dns":1,"connect":5,"#
            item += #""ssl":4,"request":1,"response":2,"latency":\#(total - 13)},"totalSize":\#(200 + i % 5000),"#
            item += #""request":{"sizes":{"headers":80,"body":0},"header":{"headers":[{"name":"Host","#
            item += #""value":"\#(host)"}]}}\#(response)}"#
            items.append(item)
        }
        return Array(("[\n" + items.joined(separator: ",\n") + "\n]\n").utf8)
    }

    /// A `.chlsx` of `count` transactions, as Charles writes them.
    static func chlsx(count: Int, hosts: Int) -> [UInt8] {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<charles-session>\n"
        for i in 0..<count {
            let millis = 1_709_281_800_000 + (i * 7919) % 3_600_000
            let duration = 20 + (i * 37) % 900
            let host = "h\(i % hosts).example.com"
            text += #"<transaction status="COMPLETE" method="GET" protocolVersion="HTTP/1.1" protocol="https" "#
            text += #"host="\#(host)" port="443" path="/v1/items/\#(i)" query="" "#
            text += #"startTimeMillis="\#(millis)" endTimeMillis="\#(millis + duration)" duration="\#(duration)">"#
            text += #"<request headers="true" body="false"><headers><header><name>Host</name>"#
            text += #"<value>\#(host)</value></header></headers></request>"#
            text += #"<response status="200" headers="true" body="false"></response></transaction>"# + "\n"
        }
        return Array((text + "</charles-session>\n").utf8)
    }

    private func expectSameSummary(_ bytes: [UInt8], kept: Int? = nil) throws {
        let full = try HTTPCaptureReader().read(bytes)
        var limits = HTTPSummaryAccumulator.Limits()
        if let kept { limits.slowest = kept }
        let streamed = try HTTPCaptureReader().readSummary(bytes, limits: limits)
        var summary = streamed.capture.summary
        summary.slowest = full.capture.summary.slowest
        #expect(summary == full.capture.summary)
        #expect(streamed.diagnostics == full.diagnostics)
        #expect(streamed.capture.source == full.capture.source)
        #expect(streamed.capture.transactions.count <= limits.slowest)
        func unnumbered(_ t: HTTPTransaction) -> HTTPTransaction {
            var t = t
            t.index = 0
            return t
        }
        let expected = full.capture.summary.slowest.prefix(limits.slowest).map {
            unnumbered(full.capture.transactions[$0])
        }
        #expect(streamed.capture.transactions.map(unnumbered) == Array(expected))
    }

    @Test(arguments: [1, 40, 2500])
    func jsonSessionSummaryEqualsTheFullRead(count: Int) throws {
        try expectSameSummary(Self.chlsj(count: count, hosts: 7))
    }

    @Test(arguments: [1, 40, 2500])
    func xmlSessionSummaryEqualsTheFullRead(count: Int) throws {
        try expectSameSummary(Self.chlsx(count: count, hosts: 7))
    }

    @Test func fewSlowestKept() throws {
        try expectSameSummary(Self.chlsj(count: 500, hosts: 3), kept: 5)
        try expectSameSummary(Self.chlsx(count: 500, hosts: 3), kept: 5)
    }

    /// The JSON session is read with its transactions opaque: each is parsed on its own, in file order, with its
    /// position as `index`.
    @Test func jsonTransactionsAreVisitedInFileOrder() throws {
        var options = JSONParseOptions()
        options.opaqueDepth = CharlesJSONReader.itemDepth
        let document = try JSONDocument(bytes: Self.chlsj(count: 30, hosts: 2), options: options)
        let opaque = document.root.elements.allSatisfy { $0.isOpaque }
        #expect(opaque)
        #expect(CharlesJSONReader.looksLikeCharles(document.root))
        var paths: [String] = []
        var indexes: [Int] = []
        _ = try CharlesJSONReader().visit(document) {
            paths.append($0.url)
            indexes.append($0.index)
        }
        #expect(paths.count == 30)
        #expect(paths.enumerated().allSatisfy { $1.hasSuffix("/items/\($0)") }, "\(paths.prefix(3))")
        #expect(indexes == Array(0..<30))
    }

    @Test func xmlTransactionsAreVisitedAsTheyEnd() throws {
        var paths: [String] = []
        let (capture, _) = try CharlesXMLReader().visit(Self.chlsx(count: 25, hosts: 2)) { paths.append($0.url) }
        #expect(paths.count == 25)
        #expect(paths.enumerated().allSatisfy { $1.hasSuffix("/v1/items/\($0)") }, "\(paths.prefix(3))")
        #expect(capture.transactions.isEmpty)
    }

    /// A damaged transaction costs only itself, and the summary says what the full read says about it.
    @Test func aDamagedJSONTransactionIsReadAsTheFullReadReadsIt() throws {
        var text = String(decoding: Self.chlsj(count: 5, hosts: 1), as: UTF8.self)
        let range = try #require(text.range(of: #""path":"/items/2","query":null"#))
        text.replaceSubrange(range, with: #""path":"/items/2","query":nul!"#)
        let bytes = Array(text.utf8)
        // Repaired inside the transaction (parsed on its own) as the whole document is repaired.
        try expectSameSummary(bytes)
        let streamed = try HTTPCaptureReader().readSummary(bytes)
        #expect(streamed.capture.summary.requests == 5)
        #expect(streamed.diagnostics.contains { $0.code == .jsonSkippedText })
    }

    /// A well-formed session larger than libxml2's 10,000,000-byte lookup bound reads without a warning: handed
    /// over whole, the document made libxml2 report an internal error at its end.
    @Test func aLargeXMLSessionReadsCleanly() throws {
        let bytes = Self.chlsx(count: 40_000, hosts: 3)
        #expect(bytes.count > 10_000_000)
        let streamed = try HTTPCaptureReader().readSummary(bytes)
        #expect(streamed.capture.summary.requests == 40_000)
        #expect(streamed.diagnostics.isEmpty, "\(streamed.diagnostics.map(\.message))")
    }
}
