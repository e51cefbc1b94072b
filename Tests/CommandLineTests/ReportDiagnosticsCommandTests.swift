import Foundation
import FuzzReplaySupport
import Testing

/// `report --format json` and `memory-limits --format json --schema-version 2` carry their inputs' findings with
/// their codes under `diagnostics` (issue 40), each with the file it is about.
@Suite struct ReportDiagnosticsCommandTests {
    @Test func findingsOfNDJSONInputsCarryTheirCodes() throws {
        let bin = try BuiltCommandTests.binary()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ndjson = folder.appendingPathComponent("scan.ndjson").path
        let lines = [
            #"{"diagnostics":[{"code":"archive.truncated","message":"the archive is truncated: members after "#
                + #"byte 11844 are missing","severity":"warning"}],"file":"logs.tar.gz","kind":"archive","#
                + #""report":null,"schemaVersion":1}"#,
            "this line is not JSON",
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: ndjson))
        let run = try BuiltCommandTests.run(bin, ["report", "--format", "json", ndjson])
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
            "\(run.stdout)\n\(run.stderr)"
        )
        let diagnostics = try #require(summary["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 2)
        #expect(diagnostics.first?["code"] as? String == "archive.truncated")
        #expect(diagnostics.first?["file"] as? String == "logs.tar.gz")
        #expect(diagnostics.last?["code"] as? String == "fleet.not-an-envelope")
        #expect(diagnostics.last?["file"] as? String == ndjson)
        #expect((diagnostics.last?["location"] as? [String: Any])?["line"] as? Int == 2)
        // The lines of `findings` stay as they were, one per diagnostic.
        #expect((summary["findings"] as? [String])?.count == 2)
    }

    @Test func memoryLimitsSchemaVersion2CarriesRowsInputsAndDiagnostics() throws {
        let bin = try BuiltCommandTests.binary()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.ips").path
        try Data().write(to: URL(fileURLWithPath: empty))
        let version1 = try BuiltCommandTests.run(bin, ["memory-limits", "--format", "json", "Corpus/jetsam"])
        let version2 = try BuiltCommandTests.run(
            bin,
            ["memory-limits", "--format", "json", "--schema-version", "2", "Corpus/jetsam", empty]
        )
        #expect(version2.status == 1)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(version1.stdout.utf8)) as? [Any])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(version2.stdout.utf8)) as? [String: Any]
        )
        #expect(document["schemaVersion"] as? Int == 2)
        // The rows are version 1's, unchanged, under `limits`.
        #expect((document["limits"] as? NSArray) == (rows as NSArray))
        let inputs = try #require(document["inputs"] as? [String: Any])
        #expect(inputs["failures"] as? Int == 1)
        #expect((inputs["jetsamEvents"] as? Int ?? 0) >= 15)
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?["code"] as? String == "input.empty")
        #expect(diagnostics.first?["file"] as? String == empty)
        let misuse = try BuiltCommandTests.run(bin, ["memory-limits", "--schema-version", "2", "Corpus/jetsam"])
        #expect(misuse.status == 2)
    }

    /// A tar.gz on standard input gives `memory-limits` what the file gives (issue 46: it printed nothing).
    @Test func memoryLimitsReadsAnArchiveOnStandardInput() throws {
        let bin = try BuiltCommandTests.binary()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpus = BuiltCommandTests.root.appendingPathComponent("Corpus/jetsam")
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".ips") }
        let members = try names.sorted().map { name in
            TarFixture.Member(name: name, data: [UInt8](try Data(contentsOf: corpus.appendingPathComponent(name))))
        }
        #expect(members.count >= 10)
        let archive = folder.appendingPathComponent("events.tar.gz").path
        try Data(TarFixture.gzip(TarFixture.tar(members))).write(to: URL(fileURLWithPath: archive))
        let fromFile = try BuiltCommandTests.run(bin, ["memory-limits", "--format", "csv", archive])
        let fromStdin = try BuiltCommandTests.run(bin, ["memory-limits", "--format", "csv", "-"], stdin: archive)
        #expect(fromFile.status == 0 && fromStdin.status == 0, "\(fromStdin.stderr)")
        #expect(fromFile.stdout.split(separator: "\n").count > 5)
        #expect(fromStdin.stdout == fromFile.stdout)
    }
}
