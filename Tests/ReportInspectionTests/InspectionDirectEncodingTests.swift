import APMInspectCore
import Foundation
import FuzzReplaySupport
import ReportInspection
import Testing

/// The envelope writes itself (`JSONDirectEncodable`), crash and watchdog reports directly and every other family
/// through its `encode(to:)`: each must come out byte for byte as the reference tree writer writes the envelope's
/// `encode(to:)`, in both layouts and at any depth.
@Suite struct InspectionDirectEncodingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every input file of the corpus, each family's.
    static var corpusFiles: [String] {
        let corpus = root.appendingPathComponent("Corpus")
        guard let walk = FileManager.default.enumerator(atPath: corpus.path) else { return [] }
        return walk.compactMap { $0 as? String }
            .filter { !$0.hasSuffix(".md") && !$0.contains("/expected/") }
            .map { corpus.appendingPathComponent($0).path }
            .filter { path in
                var folder: ObjCBool = false
                return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && !folder.boolValue
            }
            .sorted()
    }

    @Test func everyCorpusEnvelopeWritesAsItsCodableForm() {
        let files = Self.corpusFiles
        #expect(files.count >= 60)
        var kinds: Set<String> = []
        for path in files {
            let inspection = ReportInspector().inspect(path: path)
            kinds.insert(inspection.kind.rawValue)
            #expect(directEncodingMismatches(inspection) == [], "\(path)")
        }
        // The direct paths (crash, watchdog) and the encoded ones (every other family) were all taken.
        #expect(
            kinds.isSuperset(of: ["crashReport", "watchdogTermination", "jetsamEvent", "httpArchive", "metrickit"])
        )
        #expect(kinds.count >= 6)
    }

    @Test func failuresAndLocatedDiagnosticsWriteAsTheirCodableForm() {
        let located = Diagnostic(
            .warning,
            .ipsHeaderWrapped,
            "a \"quoted\"\nline",
            at: SourceLocation(byteOffset: 12, line: 3, column: 4)
        )
        let keyed = Diagnostic(.note, .moreNotListed, "é", at: SourceLocation(keyPath: "threads[0].frames"))
        let failures: [Inspection.Failure?] = [
            nil,
            Inspection.Failure(code: "not-found", message: "no such file", location: nil),
            Inspection.Failure(code: "truncated", message: "cut", location: SourceLocation(byteOffset: 0)),
        ]
        for failure in failures {
            for diagnostics in [[], [located], [located, keyed, Diagnostic(.error, .uncoded, "")]] {
                let inspection = Inspection(
                    file: "reports/a \"b\".ips",
                    kind: .unknown,
                    diagnostics: diagnostics,
                    report: nil,
                    failure: failure
                )
                #expect(directEncodingMismatches(inspection) == [])
            }
        }
    }
}
