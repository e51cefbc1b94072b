import Foundation
import ReportInspection
import Testing

@testable import APMInspectCore
@testable import apm_inspect

/// The streaming JSON writer against the tree writer it replaced, on the envelope of every file in `Corpus/`:
/// the JSON output is a contract (docs/json-output.md), so the two must agree byte for byte, compact and pretty,
/// whole or handed out in small chunks.
@Suite struct StreamedJSONOutputTests {
    private static var corpusFiles: [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpus")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [String] = []
        for case let relative as String in walker
        where !relative.hasSuffix(".md") && !relative.contains("expected/") {
            var isFolder: ObjCBool = false
            let path = root.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// The bytes `write` hands out, joined.
    private func streamed(
        _ value: some Encodable,
        pretty: Bool,
        depth: Int = 0,
        hold: Int,
        chunk: Int
    ) throws -> (text: String, calls: Int) {
        var bytes: [UInt8] = []
        var calls = 0
        try SortedJSONEncoder(pretty: pretty).write(value, depth: depth, holdingUpTo: hold, chunk: chunk) {
            bytes.append(contentsOf: $0)
            calls += 1
        }
        return (String(decoding: bytes, as: UTF8.self), calls)
    }

    @Test func everyCorpusEnvelopeMatchesTheTreeWriter() throws {
        let files = Self.corpusFiles
        #expect(files.count >= 40, "Corpus/ holds the project's example files")
        var kinds = Set<String>()
        for path in files {
            let inspection = ReportInspector().inspect(path: path)
            kinds.insert(inspection.kind.rawValue)
            for pretty in [false, true] {
                let reference = try SortedJSONEncoder(pretty: pretty).encodeThroughTree(inspection)
                #expect(try SortedJSONEncoder(pretty: pretty).encode(inspection) == reference, "\(path)")
                let chunked = try streamed(inspection, pretty: pretty, hold: 0, chunk: 512)
                #expect(chunked.text == reference, "\(path) in 512-byte chunks")
                #expect(chunked.calls >= reference.utf8.count / 512, "\(path): handed out as it was written")
                let nested = try SortedJSONEncoder(pretty: pretty).encodeThroughTree(inspection, depth: 2)
                #expect(try SortedJSONEncoder(pretty: pretty).encode(inspection, depth: 2) == nested, "\(path)")
            }
        }
        // Every family reached the writer, not only the failures.
        for kind in [
            "crashReport", "jetsamEvent", "watchdogTermination", "powerLog", "httpArchive", "charlesSession",
            "packetCapture",
        ] {
            #expect(kinds.contains(kind), "no \(kind) in Corpus/: \(kinds.sorted())")
        }
    }
}
