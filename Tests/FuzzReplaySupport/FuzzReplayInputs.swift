import APMInspectCore
import Foundation
import FuzzProperties
import Testing

/// Finds a fuzz target's replay inputs from this file's path: its fail cases, its committed seeds, and the files of
/// the named `Corpus/` folders with the given suffix (the seeds `Fuzz/smoke.sh` starts from).
public enum FuzzReplayInputs {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    public static func load(
        _ target: String,
        corpus: KeyValuePairs<String, String> = [:],
        failCases: Bool = true
    ) throws -> [(String, [UInt8])] {
        var files: [URL] = []
        for folder in (failCases ? ["Fuzz/FailCases/\(target)"] : []) + ["Fuzz/Seeds/\(target)"] {
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

    /// The committed seeds alone, for checks of what a seed claims to be (a fail case claims nothing).
    public static func seeds(_ target: String) throws -> [(String, [UInt8])] {
        try load(target, failCases: false)
    }

    /// Fail cases of a finding not fixed yet (`Fuzz/FailCases/<target>/open/`).
    public static func open(_ target: String) throws -> [(String, [UInt8])] {
        let url = root.appendingPathComponent("Fuzz/FailCases/\(target)/open")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return try names.sorted().map { ($0, try [UInt8](Data(contentsOf: url.appendingPathComponent($0)))) }
    }

    /// The encoder's output parses strictly and encodes to the same bytes again (``FuzzFindings/requireEncodes(_:_:)``).
    public static func expectEncodes(_ value: some Encodable, _ name: String) {
        var found = FuzzFindings()
        found.requireEncodes(value, name)
        expect(found, name)
    }

    /// Records every property a ``FuzzChecks`` function found violated, named after the input.
    public static func expect(
        _ found: FuzzFindings,
        _ name: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        for violation in found.violations { Issue.record("\(name): \(violation)", sourceLocation: sourceLocation) }
    }
}
