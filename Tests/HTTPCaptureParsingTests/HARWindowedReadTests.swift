import APMInspectCore
import Foundation
import Testing

@testable import HTTPCaptureParsing

/// A HAR in a regular file read a window at a time (`readStream(path:spool:)`) must give what reading the whole file
/// gives (`readStream(_:spool:)`): the same header, pages, vendor fields, summary, diagnostics with their lines and
/// columns, transactions in the same start-time order and the same spooled JSON; a file the windowed read does not
/// take is left to the whole read (nil).
@Suite struct HARWindowedReadTests {
    /// Corpus HARs that are strict JSON around their entries: the windowed read takes them.
    @Test(arguments: [
        "chrome_h2_ssl-inside-connect.har", "firefox_cache-hits_local-offset.har",
        "legacy-1.1_array-headers_no-zone_bad-numbers.har", "mitmproxy-shaped_ssl-after-connect_usec.har",
    ])
    func windowedEqualsWholeOnCorpus(name: String) throws {
        #expect(try expectSameAsWhole(try Corpus.bytes(name)))
    }

    /// Every corpus file, HAR or not: the windowed read either declines it or gives the whole read's result.
    @Test(arguments: StreamedSummaryTests.corpusFiles)
    func windowedDeclinesOrEqualsWhole(name: String) throws {
        _ = try expectSameAsWhole(try Corpus.bytes(name))
    }

    /// A byte order mark, a cut-off end, gzip and standard-input-like inputs are read whole.
    @Test func irregularFilesAreLeftToTheWholeRead() throws {
        for name in ["safari_bom_wall-clock_memory-cache.har", "truncated_mid-entry.har", "charles_session.chlsj"] {
            #expect(try !expectSameAsWhole(try Corpus.bytes(name)), "\(name)")
        }
        let cut = Array(Self.har(entries: 5).dropLast(40))
        #expect(try !expectSameAsWhole(cut))
        #expect(try !expectSameAsWhole(Array(#"{"log":{"version":"1.2","entries":[{"request":{}},]}}"#.utf8)))
        #expect(try !expectSameAsWhole(Array(#"{"log":{"entries":[1,{"request":{}}]}}"#.utf8)))
        #expect(HARFile(path: RawPath("/dev/null")) == nil)
    }

    /// Pages, vendor fields at every level, non-ASCII text, entries before the creator, unsorted starts, repairs
    /// inside entries (placed by line and column) and entries that are not JSON: the same capture and diagnostics.
    @Test(arguments: [0, 1, 7, 300])
    func windowedEqualsWholeOnRealisticHAR(entries: Int) throws {
        #expect(try expectSameAsWhole(Self.har(entries: entries)))
        #expect(try expectSameAsWhole(Self.har(entries: entries, entriesFirst: true)))
    }

    /// Entries that cross the read window, one larger than it: the window widens and the entries are the same.
    @Test func entriesLargerThanTheWindow() throws {
        let big = String(repeating: "é\\\"[{x", count: HARWindowedFile.windowSize / 5)
        #expect(try expectSameAsWhole(Self.har(entries: 1, bodyText: big)))
        #expect(try expectSameAsWhole(Self.har(entries: 4_000)))
    }

    /// Generated HAR text: pretty-printed over many lines so that diagnostics have lines and columns to place.
    static func har(entries: Int, entriesFirst: Bool = false, bodyText: String = "réponse ✓") -> [UInt8] {
        var random = SplitMix(seed: UInt64(entries) + 3)
        let header = """
              "version": "1.2",
              "creator": {"name": "Generator ⚙︎", "version": "2.0", "_vendor": [1, {"deep": null}]},
              "browser": {"name": "Firefox", "version": "120"},
              "pages": [
                {"startedDateTime": "2024-03-01T10:00:00.000+01:00", "id": "page_1", "title": "Accueil é",
                 "pageTimings": {"onContentLoad": 120.5, "onLoad": 300}},
                {"startedDateTime": "2024-03-01T10:05:00.000+01:00", "id": "page_2", "title": "日本語",
                 "pageTimings": {"onLoad": -1}}
              ],
              "_exporter": {"kind": "test", "list": [1, 2, 3]},
            """
        var list: [String] = []
        for i in 0..<entries {
            let second = Int.random(in: 0..<3600, using: &random)
            let start = i % 17 == 5 ? "" : String(format: "2024-03-01T10:%02d:%02d.%03dZ", second / 60, second % 60, i)
            let wait = Double(Int.random(in: 1...90000, using: &random)) / 100
            let page = i % 2 == 0 ? "page_1" : "page_2"
            let text = bodyText.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"",
                with: "\\\""
            )
            if i % 23 == 11 {
                // Not JSON once parsed on its own; skipped with a warning.
                list.append("    {\"request\": {\"url\": tru], \"response\": 5}")
                continue
            }
            // A trailing comma and a bare-word value: repaired, with a note placed at its line and column.
            let repaired = i % 13 == 6 ? ",\n      \"_odd\": [1, 2,],\n" : "\n"
            let bad = i % 7 == 3 ? "\"12x\"" : "\(Int.random(in: 0...4000, using: &random))"
            list.append(
                """
                    {
                      "pageref": "\(page)", "startedDateTime": "\(start)", "time": \(wait + 2),
                      "request": {"method": "POST", "url": "https://h\(i % 5).example.com/ü/\(i)?q=✓",
                        "httpVersion": "HTTP/2", "headers": [{"name": "X-Ünïcode", "value": "vàlue"}],
                        "queryString": [], "cookies": [], "headersSize": -1, "bodySize": \(bad),
                        "postData": {"mimeType": "text/plain", "text": "données"}},
                      "response": {"status": \([200, 404, 0, 503][i % 4]), "statusText": "OK",
                        "httpVersion": "HTTP/2", "headers": [], "cookies": [], "redirectURL": "",
                        "content": {"size": \(i * 7), "mimeType": "text/plain; charset=utf-8", "text": "\(text)"},
                        "headersSize": -1, "bodySize": -1, "_transferSize": \(i)},
                      "cache": {}, "timings": {"blocked": -1, "dns": 1.5, "connect": 3, "ssl": 2, "send": 0,
                        "wait": \(wait), "receive": 0.5, "_queued": 0.25},
                      "_initiator": {"type": "script", "stack": {"callFrames": []}}\(repaired)    }
                """
            )
        }
        let entriesText = "  \"entries\": [\n" + list.joined(separator: ",\n") + "\n  ]"
        let body =
            entriesFirst
            ? entriesText + ",\n" + String(header.dropLast()) + "\n"
            : header + "\n" + entriesText + "\n"
        return Array("{\n  \"log\": {\n\(body)  },\n  \"_top\": \"vendor ✓\"\n}\n".utf8)
    }

    /// Writes `bytes` to a temporary file and reads it both ways; false when the windowed read declined it (after
    /// checking it declines only what it must), true when it took it and gave the whole read's result.
    private func expectSameAsWhole(
        _ bytes: [UInt8],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> Bool {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("har-window-\(UUID().uuidString)")
            .path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)), sourceLocation: sourceLocation)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = HTTPCaptureReader()
        var took = false
        for (pretty, depth) in [(false, 2), (true, 3)] {
            let encoder = SortedJSONEncoder(pretty: pretty)
            let windowedSpool = try HTTPTransactionSpool(encoder: encoder, depth: depth)
            guard let windowed = try reader.readStream(path: RawPath(path), spool: windowedSpool) else { continue }
            took = true
            let wholeSpool = try HTTPTransactionSpool(encoder: encoder, depth: depth)
            let whole = try reader.readStream(bytes, spool: wholeSpool)
            #expect(windowed.diagnostics == whole.diagnostics, sourceLocation: sourceLocation)
            #expect(windowed.capture == whole.capture, sourceLocation: sourceLocation)
            #expect(windowed.isSpooled == whole.isSpooled, sourceLocation: sourceLocation)
            var windowedJSON: [UInt8] = []
            var wholeJSON: [UInt8] = []
            _ = windowedSpool.writeTransactions(of: windowed) { windowedJSON += $0 }
            _ = wholeSpool.writeTransactions(of: whole) { wholeJSON += $0 }
            #expect(windowedJSON == wholeJSON, sourceLocation: sourceLocation)
            // The second pass, rebuilt from the file, as the stream hands it over without a spool.
            #expect(windowed.whole == whole.whole, sourceLocation: sourceLocation)
            let unspooled = try #require(try reader.readStream(path: RawPath(path), spool: nil))
            let read = try reader.read(bytes).capture
            #expect(unspooled.whole == read, sourceLocation: sourceLocation)
        }
        return took
    }
}
