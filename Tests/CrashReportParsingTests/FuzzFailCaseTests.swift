import APMInspectCore
import CrashReportParsing
import Foundation
import Testing

/// Replays, without sanitizers, every input the crash-report fuzz targets crashed on (`Fuzz/FailCases/<target>/`)
/// and their seeds, through the same calls and properties as the targets in `Fuzz/Sources/`.
@Suite struct FuzzFailCaseTests {
    @Test func text() throws {
        try replay(FuzzReplayInputs.load("FuzzCrashText", corpus: ["crash": ".crash", "crash": ".txt"]))
    }

    @Test func json() throws {
        try replay(FuzzReplayInputs.load("FuzzCrashJSON", corpus: ["crash": ".ips", "watchdog": ".ips"]))
    }

    /// Parse twice, encode, render in both layouts, translate: what the targets do.
    private func replay(_ inputs: [(String, [UInt8])]) {
        for (name, bytes) in inputs {
            let parser = CrashReportParser()
            guard let first = try? parser.parse(bytes) else { continue }
            #expect(first == (try? parser.parse(bytes)), "\(name)")
            FuzzReplayInputs.expectEncodes(first.report, name)
            for layout in AppleTextLayout.allCases {
                #expect(!CrashTextTranslator(layout: layout).translate(first.report).isEmpty, "\(name)")
            }
            if let translated = try? CrashTextTranslator().translation(of: bytes) {
                #expect(!translated.text.isEmpty, "\(name)")
            }
        }
    }
}

/// Finds a fuzz target's replay inputs from this file's path: its fail cases, its committed seeds, and the files of
/// the named `Corpus/` folders with the given suffix (the seeds `Fuzz/smoke.sh` starts from).
private enum FuzzReplayInputs {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func load(_ target: String, corpus: KeyValuePairs<String, String> = [:]) throws -> [(String, [UInt8])] {
        var files: [URL] = []
        for folder in ["Fuzz/FailCases/\(target)", "Fuzz/Seeds/\(target)"] {
            let url = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            files += names.filter { !$0.hasSuffix(".md") && $0 != "open" }.map { url.appendingPathComponent($0) }
        }
        for (folder, suffix) in corpus {
            let url = root.appendingPathComponent("Corpus/\(folder)")
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            files += names.filter { $0.hasSuffix(suffix) }.map { url.appendingPathComponent($0) }
        }
        let inputs = try files.sorted { $0.path < $1.path }.map {
            ($0.lastPathComponent, try [UInt8](Data(contentsOf: $0)))
        }
        #expect(!inputs.isEmpty, "no fail cases or seeds found for \(target)")
        return inputs
    }

    /// The encoder's output parses strictly and encodes to the same bytes again.
    static func expectEncodes(_ value: some Encodable, _ name: String) {
        guard let text = try? SortedJSONEncoder().encode(value) else {
            Issue.record("\(name): does not encode")
            return
        }
        let document = try? JSONDocument(bytes: Array(text.utf8), options: .strict)
        #expect(document != nil, "\(name): output is not strict JSON")
        if let document { #expect((try? SortedJSONEncoder().encode(document.root.materialized)) == text, "\(name)") }
    }
}
