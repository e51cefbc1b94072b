import APMInspectCore
import CrashReportParsing
import Foundation
import Testing

@testable import WatchdogAnalysis

/// The envelope `apm-inspect inspect --format json` prints for crash and watchdog reports, rebuilt here so the
/// reviewed expected outputs in Corpus/crash/expected and Corpus/watchdog/expected are checked without the CLI.
private struct Envelope: Encodable {
    var file: String
    var kind: String
    var diagnostics: [Diagnostic]
    var report: CrashReport
    var watchdog: WatchdogTermination?

    private enum Keys: String, CodingKey {
        case file, kind, diagnostics, report
    }

    private struct ReportWithWatchdog: Encodable {
        var report: CrashReport
        var watchdog: WatchdogTermination?

        private enum Keys: String, CodingKey {
            case watchdog
        }

        func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            if let watchdog {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(watchdog, forKey: .watchdog)
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(file, forKey: .file)
        try container.encode(kind, forKey: .kind)
        try container.encode(diagnostics, forKey: .diagnostics)
        try container.encode(ReportWithWatchdog(report: report, watchdog: watchdog), forKey: .report)
    }
}

@Suite struct CorpusGoldenTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func reports(in family: String) -> [String] {
        let folder = root.appendingPathComponent("Corpus/\(family)").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasSuffix(".md") && $0 != "expected" }.sorted().map { "\(family)/\($0)" }
    }

    @Test func corpusFoldersAreThere() {
        #expect(Self.reports(in: "crash").count >= 3)
        #expect(Self.reports(in: "watchdog").count >= 7)
    }

    @Test(arguments: reports(in: "crash") + reports(in: "watchdog"))
    func matchesExpectedOutput(relative: String) throws {
        let path = Self.root.appendingPathComponent("Corpus/\(relative)").path
        let result = try CrashReportParser().parse(try FileReading.contents(atPath: path))
        let watchdog = WatchdogDetector.analyze(result.report)
        let kind = watchdog.map { $0.kind == .stackshot ? "stackshot" : "watchdogTermination" } ?? "crashReport"
        let envelope = Envelope(
            file: "Corpus/\(relative)",
            kind: kind,
            diagnostics: result.diagnostics,
            report: result.report,
            watchdog: watchdog
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let actual = String(decoding: try encoder.encode(envelope), as: UTF8.self) + "\n"
        let family = relative.split(separator: "/").first.map(String.init) ?? ""
        let name = relative.split(separator: "/").last.map(String.init) ?? ""
        let expectedPath = Self.root.appendingPathComponent("Corpus/\(family)/expected/\(name).json").path
        // Regenerating is explicit, and every changed file is reviewed by eye before it is committed.
        if ProcessInfo.processInfo.environment["CORPUS_WRITE_EXPECTED"] == "1" {
            try actual.write(toFile: expectedPath, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: expectedPath, encoding: .utf8)
        #expect(actual == expected, "output differs from Corpus/\(family)/expected/\(name).json")
    }
}
