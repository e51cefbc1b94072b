import APMInspectCore
import BackendExport
import CrashReportParsing
import Foundation
import JetsamParsing
import MetricKitParsing
import WatchdogAnalysis

/// Reads the repository's Corpus files with the parsers the command uses and turns them into incidents.
enum CorpusIncidents {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every report file of the families that give backend events, as `family/name`.
    static var files: [String] {
        ["crash", "watchdog", "jetsam", "kscrash", "metrickit", "system"].flatMap { family -> [String] in
            let folder = root.appendingPathComponent("Corpus/\(family)").path
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return names.filter { !$0.hasSuffix(".md") && $0 != "expected" }.sorted().map { "\(family)/\($0)" }
        }
    }

    /// Files that are in the corpus to show what is not an event: they must give none.
    static let withoutEvents: Set<String> = [
        "jetsam/coreanalytics-211_ios16.5_not-jetsam_per-process-limit-lookalike.ips",
        "metrickit/ios16.7.2_metric_payload_older_version.json",
        "metrickit/ios17.4_metric_payload.json",
        // A slow launch is a figure (metrickit.diagnostic.app_launch.launch_duration), not an incident.
        "metrickit/ios18.0.1_app_launch_diagnostic.json",
        // A MetricKit memory exception (iOS 27) has no backend mapping yet (BackendIncident(metricKit:) names the
        // crash, hang, CPU and disk-write kinds only): `report` counts it as an OOM.
        "metrickit/ios27.0_diagnostic_report_memory_exception.json",
        // A sampling profile records no failure.
        "kscrash/v3.7.0_ios18.2_arm64_profile_startup_samples.json",
    ]

    struct Loaded {
        var incidents: [BackendIncident]
        var digest: [UInt8]
        var metricPayloads: [MetricPayloadFigures] = []
    }

    enum Failure: Error {
        case unreadable(String)
    }

    static func load(_ file: String) throws -> Loaded {
        let bytes = try FileReading.contents(atPath: root.appendingPathComponent("Corpus/\(file)").path)
        return try load(bytes: bytes, family: file.split(separator: "/").first.map(String.init) ?? "")
    }

    static func bytes(_ file: String) throws -> [UInt8] {
        try FileReading.contents(atPath: root.appendingPathComponent("Corpus/\(file)").path)
    }

    /// Reads `bytes` with the parser of `family` (the Corpus folder's name).
    static func load(bytes: [UInt8], family: String) throws -> Loaded {
        let digest = SHA256Digest.hash(bytes)
        switch family {
        case "crash", "watchdog":
            let report = try CrashReportParser().parse(bytes).report
            let watchdog = WatchdogDetector.analyze(report)
            return Loaded(incidents: BackendEvents.incidents(crash: report, watchdog: watchdog), digest: digest)
        case "kscrash":
            let reader = KSCrashReader()
            let document = try JSONDocument(bytes: bytes, options: reader.json)
            let report = try reader.parse(document).report
            let watchdog = WatchdogDetector.analyze(kscrash: report)
            return Loaded(incidents: BackendEvents.incidents(crash: report, watchdog: watchdog), digest: digest)
        case "jetsam":
            guard let event = try? JetsamParser().parse(bytes).event else {
                return Loaded(incidents: [], digest: digest)
            }
            return Loaded(incidents: BackendEvents.incidents(jetsam: event), digest: digest)
        case "metrickit":
            // The iOS 27 `DiagnosticReport` has its own reader, picked as the inspector's family order picks it.
            let codable = MetricKitDiagnosticReportReader.recognise(bytes, format: ContentSniffer.format(of: bytes))
            let report =
                try (codable ? MetricKitDiagnosticReportReader().read(bytes) : MetricKitReader().read(bytes)).report
            return Loaded(
                incidents: BackendEvents.incidents(metricKit: report),
                digest: digest,
                metricPayloads: BackendEvents.metricPayloads(metricKit: report)
            )
        case "system":
            let container = IPSContainer(bytes: bytes)
            if container.bugType?.code == "409" {
                let report = try SystemWatchdogReader().parse(container).report
                return Loaded(incidents: BackendEvents.incidents(systemWatchdog: report), digest: digest)
            }
            let report = try ResourceReportReader().parse(container).report
            return Loaded(incidents: BackendEvents.incidents(resource: report), digest: digest)
        default:
            throw Failure.unreadable(family)
        }
    }

    /// A JSON value as Foundation objects, to be checked the way a backend reads it.
    static func object(_ value: JSONValue) throws -> [String: Any] {
        let text = try SortedJSONEncoder().encode(value)
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw Failure.unreadable(text)
        }
        return object
    }
}
