import APMInspectCore
import Foundation
import JetsamParsing
import Testing

/// Replays, without sanitizers, every input the Jetsam fuzz targets crashed on (`Fuzz/FailCases/<target>/`) and
/// their seeds, through the same calls and properties as the targets in `Fuzz/Sources/`.
@Suite struct FuzzFailCaseTests {
    @Test func fullModel() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzJetsam", corpus: ["jetsam": ".ips"]) {
            let parser = JetsamParser()
            let first = try? parser.parse(bytes)
            #expect(first == (try? parser.parse(bytes)), "\(name)")
            if let first { FuzzReplayInputs.expectEncodes(first.event, name) }
        }
    }

    @Test func memoryLimitFastPath() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzJetsamLimits", corpus: ["jetsam": ".ips"]) {
            Self.expectFastPathAgrees(bytes, name)
        }
    }

    /// Open finding (Fuzz/FailCases/README.md): two process entries merged by a missing brace give a kill in the
    /// full model that the fast path does not see.
    @Test func memoryLimitFastPathOpenFindings() throws {
        let cases = try FuzzReplayInputs.open("FuzzJetsamLimits")
        #expect(!cases.isEmpty)
        for (name, bytes) in cases {
            withKnownIssue("fast path and full model disagree on merged process objects: \(name)") {
                Self.expectFastPathAgrees(bytes, name)
            }
        }
    }

    private static func expectFastPathAgrees(_ bytes: [UInt8], _ name: String) {
        let container = IPSContainer(bytes: bytes)
        let parser = JetsamParser()
        guard let fast = try? parser.memoryLimitEvidence(container, contentHash: { 7 }) else { return }
        FuzzReplayInputs.expectEncodes(fast.evidence, name)
        if let full = try? parser.parse(container) {
            #expect(MemoryLimitEvidence(event: full.event, contentHash: 7) == fast.evidence, "\(name)")
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

    /// Fail cases of a finding not fixed yet (`Fuzz/FailCases/<target>/open/`).
    static func open(_ target: String) throws -> [(String, [UInt8])] {
        let url = root.appendingPathComponent("Fuzz/FailCases/\(target)/open")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return try names.sorted().map { ($0, try [UInt8](Data(contentsOf: url.appendingPathComponent($0)))) }
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
