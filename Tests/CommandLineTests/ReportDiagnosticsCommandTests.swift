import Foundation
import Testing

/// `report --format json` carries its inputs' findings with their codes under `diagnostics` (issue 40): an
/// NDJSON line that is not an envelope and an archive's own envelope, each with the file it is about.
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
}
