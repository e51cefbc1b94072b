import APMInspectCore
import Foundation
import PowerLogReading
import Testing

/// Replays, without sanitizers, every database the PowerLog fuzz target crashed on (`Fuzz/FailCases/FuzzPowerLog/`)
/// and its seeds, through the same calls and properties as `Fuzz/Sources/FuzzPowerLog`: each input is written to a
/// temporary file, read twice, and its report encoded.
@Suite struct FuzzFailCaseTests {
    @Test func reader() throws {
        let inputs = try FuzzReplayInputs.load("FuzzPowerLog", corpus: ["powerlog": ".PLSQL", "powerlog": ".PLSQL.gz"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = PowerLogReader(
            options: PowerLogReadOptions(
                maxRowsPerTable: 20_000,
                maxDecompressedBytes: 32 << 20,
                temporaryDirectory: folder.path
            )
        )
        var read = 0
        for (name, bytes) in inputs {
            let path = folder.appendingPathComponent("input.PLSQL").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let first = try? reader.read(path: path)
            #expect(first == (try? reader.read(path: path)), "\(name)")
            if let first {
                read += 1
                FuzzReplayInputs.expectEncodes(first.report, name)
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        #expect(read >= 1, "the corpus databases read")
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
