import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

/// The shortcuts ``HAREntryBuilder`` takes for `http --format json` (response headers read only when kept or their
/// Content-Type is wanted, provenance lists made at their size, the smaller extensions dictionary merged into the
/// larger) must give what the plain readings gave.
@Suite struct HARBuildShortcutTests {
    /// Streamed (a light pass without response headers, then each entry rebuilt) and read whole, generated HARs
    /// whose types come from Content-Type headers, with hostile timings and colliding vendor keys, give the same
    /// capture, summary and diagnostics.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func streamEqualsReadOnShortcutShapes(seed: UInt64) throws {
        let bytes = Self.har(entries: 120, seed: seed)
        for keepHeaders in [true, false] {
            var options = HTTPCaptureOptions()
            options.keepHeaders = keepHeaders
            let reader = HTTPCaptureReader(options: options)
            let full = try reader.read(bytes)
            let stream = try reader.readStream(bytes)
            #expect(stream.diagnostics == full.diagnostics)
            #expect(stream.whole == full.capture)
            let summary = try reader.readSummary(bytes)
            #expect(summary.capture.summary.byType == full.capture.summary.byType)
            #expect(summary.diagnostics == full.diagnostics)
        }
    }

    /// The types in the generated files come from the headers: were the light pass to skip them, every entry without
    /// a content type would count as `other`.
    @Test func typesComeFromContentTypeHeaders() throws {
        let stream = try HTTPCaptureReader().readStream(Self.har(entries: 120, seed: 3))
        var types: [HTTPTransaction.TrafficType: Int] = [:]
        stream.forEachTransaction { types[$0.trafficType, default: 0] += 1 }
        #expect((types[.web] ?? 0) > 10)
        #expect((types[.resource] ?? 0) > 10)
        let counted = Dictionary(stream.capture.summary.byType.map { ($0.type, $0.requests) }) { a, _ in a }
        #expect(counted[.web] == types[.web])
        #expect(counted[.resource] == types[.resource])
    }

    /// Values refused and the timings' vendor fields win over the entry's fields of the same key, whichever of the
    /// two dictionaries is the larger.
    @Test(arguments: [0, 1, 6])
    func refusedValuesWinOverEntryFields(entryExtras: Int) throws {
        var extras = ""
        for k in 0..<entryExtras { extras += #""_x\#(k)":\#(k),"# }
        let text = """
            {"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[{\(extras)\
            "timings.x":"entry","response.status":"entry","startedDateTime":"2024-03-01T10:00:00Z","time":5,\
            "request":{"method":"GET","url":"https://a.example/","headers":[]},\
            "response":{"status":"abc","headers":[]},\
            "timings":{"x":"timings","send":1,"wait":2,"receive":3,"dns":-1,"connect":-7,"ssl":1e12}}]}}
            """
        let capture = try HTTPCaptureReader().read(Array(text.utf8)).capture
        let t = try #require(capture.transactions.first)
        #expect(t.extensions["timings.x"] == .string("timings"))
        #expect(t.extensions["response.status"] == .string("abc"))
        for k in 0..<entryExtras { #expect(t.extensions["_x\(k)"] == .number("\(k)")) }
        #expect(t.provenance.measured == ["send", "wait", "receive"])
        #expect(t.provenance.unknown == ["blocked", "dns"])
        #expect(t.provenance.rejected == ["connect", "tls"])
    }

    /// Entries whose type is in a Content-Type header (any case, sometimes after `content.mimeType` is missing or
    /// empty), with timings absent, -1, negative, absurd or strings, and vendor keys that collide.
    static func har(entries: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        var text = #"{"log":{"version":"1.2","creator":{"name":"gen","version":"1"},"entries":["#
        for i in 0..<entries {
            let header = pick(["Content-Type", "content-type", "CONTENT-TYPE", "X-Other", "Cont\u{212A}"])
            let type = pick(["text/html", "image/png", "application/json", "font/woff2", ""])
            let content = pick([#""mimeType":"","#, "", #""mimeType":"text/css","#])
            let timing = { pick(["-1", "0", "12.5", "-3", "1e12", #""7""#, "null"]) }
            var timings = #""send":\#(timing()),"wait":\#(timing()),"receive":\#(timing())"#
            for key in ["blocked", "dns", "connect", "ssl", "_queued"] where random.next() % 3 != 0 {
                timings += #","\#(key)":\#(timing())"#
            }
            if i > 0 { text += "," }
            text += #"{"startedDateTime":"2024-03-01T10:00:\#(String(format: "%02d", i % 60)).000Z","#
            text += #""time":\#(pick(["10", "-1", "x", "1e20"])),"timings.x":1,"_extra":{"a":[1,2]},"#
            text += #""request":{"method":"GET","url":"https://h\#(i % 5).example/\#(i)","headers":["#
            text += #"{"name":"Cookie","value":"s"},{"name":":authority","value":"h.example"}],"headersSize":-1},"#
            text += #""response":{"status":\#(pick(["200", "404", "\"x\"", "0"])),"headers":["#
            text += #"{"name":"\#(header)","value":"\#(type)"},{"name":"Set-Cookie","value":"t"}],"#
            text += #""content":{\#(content)"size":\#(i)}},"#
            text += #""timings":{\#(timings),"x":"\#(i)"}}"#
        }
        text += "]}}"
        return Array(text.utf8)
    }
}
