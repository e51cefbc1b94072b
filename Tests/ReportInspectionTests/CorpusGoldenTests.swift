import APMInspectCore
import Foundation
import ReportInspection
import Testing

/// Every reviewed expected output under Corpus/*/expected, produced by the library entry point exactly as
/// `apm-inspect inspect --format json` writes it: one check for every family, through the same routing.
@Suite struct CorpusGoldenTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `family/name` of every input that has an expected output.
    static var cases: [String] {
        let corpus = root.appendingPathComponent("Corpus").path
        let families = ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).sorted()
        return families.flatMap { family -> [String] in
            let expected = "\(corpus)/\(family)/expected"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: expected)) ?? []
            return names.filter { $0.hasSuffix(".json") }.sorted().map { "\(family)/\($0.dropLast(5))" }
        }
    }

    @Test func everyFamilyWithExpectedOutputsIsChecked() {
        let families = Set(Self.cases.compactMap { $0.split(separator: "/").first.map(String.init) })
        #expect(families.isSuperset(of: ["crash", "jetsam", "kscrash", "metrickit", "watchdog"]))
        #expect(Self.cases.count >= 50)
    }

    @Test(arguments: cases)
    func matchesExpectedOutput(relative: String) throws {
        let path = Self.root.appendingPathComponent("Corpus/\(relative)").path
        var inspection = ReportInspector().inspect(path: path)
        inspection.rename(from: path, to: "Corpus/\(relative)")
        let actual = try SortedJSONEncoder(pretty: true).encode(inspection) + "\n"
        let parts = relative.split(separator: "/", maxSplits: 1).map(String.init)
        let expectedPath = Self.root.appendingPathComponent("Corpus/\(parts[0])/expected/\(parts[1]).json").path
        // Regenerating is explicit, and every changed file is reviewed by eye before it is committed.
        if ProcessInfo.processInfo.environment["CORPUS_WRITE_EXPECTED"] == "1" {
            try actual.write(toFile: expectedPath, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
        #expect(actual == expected, "output differs from Corpus/\(parts[0])/expected/\(parts[1]).json")
    }
}
