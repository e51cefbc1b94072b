import APMInspectCore
import CrashReportParsing
import Foundation
import Testing
import WatchdogAnalysis

/// Replays, without sanitizers, every input the watchdog fuzz target crashed on (`Fuzz/FailCases/FuzzWatchdog/`) and
/// its seeds, through the same calls and properties as `Fuzz/Sources/FuzzWatchdog`.
@Suite struct FuzzFailCaseTests {
    @Test func detector() throws {
        let inputs = try FuzzReplayInputs.load("FuzzWatchdog", corpus: ["watchdog": ".crash", "watchdog": ".ips"])
        for (name, bytes) in inputs {
            guard let parsed = try? CrashReportParser().parse(bytes) else { continue }
            let first = WatchdogDetector.analyze(parsed.report)
            #expect(first == WatchdogDetector.analyze(parsed.report), "\(name)")
            if let first { FuzzReplayInputs.expectEncodes(first, name) }
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
