import APMInspectCore
import FleetReport
import Foundation
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import Testing

/// NDJSON of an earlier scan gives the same fleet facts as the reports themselves, and bad lines are told apart.
@Suite struct FleetEnvelopeTests {
    static let families = ["crash", "watchdog", "jetsam", "kscrash", "metrickit"]

    /// Every report of the Corpus families the fleet report reads.
    static func corpusFiles() throws -> [String] {
        var paths: [String] = []
        for family in families {
            let folder = FuzzReplayInputs.root.appendingPathComponent("Corpus/\(family)")
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            where !name.hasSuffix(".md") && name != "expected" {
                paths.append(folder.appendingPathComponent(name).path)
            }
        }
        return paths
    }

    @Test func everyCorpusReportReadsBackFromItsEnvelopeAsTheSameEvent() throws {
        let files = try Self.corpusFiles()
        #expect(files.count > 40)
        var kinds: Set<String> = []
        var withFacts = 0
        for path in files {
            let inspection = ReportInspector().inspect(path: path)
            let direct = inspection.fleetEvent
            let line = try JSONOutput.encode(inspection, pretty: false)
            let decoded = try FleetEnvelope.decode(line: Array(line.utf8))
            #expect(decoded == direct, "\(path)")
            kinds.insert(direct.kind)
            if !direct.crashes.isEmpty || direct.watchdog != nil || direct.oom != nil || !direct.metricKit.isEmpty {
                withFacts += 1
            }
        }
        #expect(kinds.isSuperset(of: ["crashReport", "watchdogTermination", "jetsamEvent", "kscrash", "metrickit"]))
        #expect(withFacts > 35)
    }

    @Test func aMetricKitCrashDiagnosticIsGroupedWithItsMetadata() throws {
        let path = FuzzReplayInputs.root.appendingPathComponent(
            "Corpus/metrickit/ios17.5_crash_objc_exception_nsrangeexception.json"
        ).path
        let event = ReportInspector().inspect(path: path).fleetEvent
        let crash = try #require(event.crashes.first)
        #expect(crash.source == "metrickit")
        #expect(crash.signature == "a3f54c576d7b5f7c")
        #expect(crash.context.appVersion == "3.2.0")
        #expect(crash.context.device == "iPhone15,2")
        #expect(crash.context.osVersion == "17.5")
        #expect(event.metricKit.map(\.version) == ["3.2.0"])
    }

    @Test func linesThatAreNotEnvelopesAreRejectedWithTheirLineNumber() throws {
        let folder = try TemporaryTestFolder()
        defer { folder.remove() }
        let crash = FuzzReplayInputs.root.appendingPathComponent(
            "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"
        ).path
        let envelope = try JSONOutput.encode(ReportInspector().inspect(path: crash), pretty: false)
        let long = "{\"diagnostics\":[],\"file\":\"" + String(repeating: "x", count: envelope.utf8.count + 200) + "\"}"
        let text = [envelope, "", "not json", "{\"diagnostics\":[]}", long, "[1,2]", envelope].joined(separator: "\n")
        let path = folder.path + "/scan.ndjson"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        // Small chunks: lines cross chunk boundaries.
        let reader = NDJSONReader(maxLineBytes: envelope.utf8.count + 100, chunkBytes: 37)
        // One thread, and three threads over batches of about two lines: the same outcomes, in file order.
        for (jobs, batchBytes) in [(1, 16 << 20), (3, envelope.utf8.count)] {
            var events: [FleetEvent] = []
            var rejected: [Diagnostic] = []
            try reader.read(path: path, jobs: jobs, batchBytes: batchBytes) { line in
                switch line {
                case .event(let event): events.append(event)
                case .rejected(let diagnostic): rejected.append(diagnostic)
                case .findings: Issue.record("no line of this file is an archive's envelope")
                }
                return true
            }
            #expect(events.count == 2)
            #expect(events.first?.crashes.first?.signature == "adb296751ce47f08")
            #expect(rejected.map(\.location?.line) == [3, 4, 5, 6])
            #expect(rejected.prefix(3).map(\.code) == [.fleetNotAnEnvelope, .fleetNotAnEnvelope, .fleetLineTooLong])
        }
        var seen = 0
        try reader.read(path: path, jobs: 2, batchBytes: 1) { _ in
            seen += 1
            return seen < 2
        }
        #expect(seen == 2)
        let tight = NDJSONReader(maxLineBytes: 100, chunkBytes: 64)
        var tightRejected = 0
        try tight.read(path: path) { line in
            if case .rejected = line { tightRejected += 1 }
            return true
        }
        #expect(tightRejected == 6)
    }

    @Test func ndjsonIsRecognisedByItsFirstBytes() {
        #expect(FleetEnvelope.looksLikeNDJSON(prefix: Array("{\"diagnostics\":[],\"file\":\"a\"".utf8)))
        #expect(FleetEnvelope.looksLikeNDJSON(prefix: Array("\n {\"diagnostics\":[{".utf8)))
        #expect(!FleetEnvelope.looksLikeNDJSON(prefix: Array("{\"app_name\":\"Harbor\"}".utf8)))
        #expect(!FleetEnvelope.looksLikeNDJSON(prefix: Array("{\n  \"diagnostics\" : [".utf8)))
        // A JetsamEvent's envelope: its content hash sorts first.
        #expect(
            FleetEnvelope.looksLikeNDJSON(prefix: Array("{\"contentHash\":\"0961b2eff3298695\",\"diagnostics\":[".utf8))
        )
        #expect(
            !FleetEnvelope.looksLikeNDJSON(prefix: Array("{\"contentHash\":\"0961b2eff32986\",\"diagnostics\":[".utf8))
        )
        #expect(!FleetEnvelope.looksLikeNDJSON(prefix: Array("{\"contentHash\":\"0961b2eff3298695\",\"file\":\"".utf8)))
    }
}

/// A private folder under the system's temporary directory, removed by the test.
struct TemporaryTestFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "fleet-report-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}
