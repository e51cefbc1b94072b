import APMInspectCore
import CrashReportParsing
import Foundation
import JetsamParsing
import MetricKitParsing
import WatchdogAnalysis

/// One envelope of `scan --format ndjson` (or `inspect --format ndjson`), read back into a ``FleetEvent``.
///
/// The report is decoded into the same models the parsers build, and the event is made by the same functions as
/// for a file read directly, so the two ways in agree. Keys this version does not know are ignored.
package struct FleetEnvelope: Decodable {
    package var event: FleetEvent
    /// For an archive's own envelope (`kind` `archive`): its findings as the fleet report lists them; it is not a
    /// report and adds no event.
    package var archiveFindings: [FleetFinding]?

    private enum Keys: String, CodingKey {
        case file, kind, report, error, contentHash, diagnostics
    }

    private enum WatchdogKey: String, CodingKey {
        case watchdog
    }

    private enum ErrorKey: String, CodingKey {
        case message
    }

    /// The `userInfo` key under which a decoder passes the ``GroupingRules`` of `report --grouping`.
    package static let groupingKey = CodingUserInfoKey(rawValue: "apm-inspect.grouping")

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let grouping = Self.groupingKey.flatMap { decoder.userInfo[$0] } as? GroupingRules
        let file = try container.decode(String.self, forKey: .file)
        let kind = try container.decode(String.self, forKey: .kind)
        var event = FleetEvent(file: file, kind: kind)
        if kind == FileKind.archive.rawValue {
            let findings = try container.decodeIfPresent([Diagnostic].self, forKey: .diagnostics) ?? []
            archiveFindings = findings.map { FleetFinding(file: file, diagnostic: $0) }
            self.event = event
            return
        }
        let errorIsNull = (try? container.decodeNil(forKey: .error)) ?? true
        event.unreadable = container.contains(.error) && !errorIsNull
        if event.unreadable {
            // The error's message says why; an error of another shape still marks the file unreadable.
            event.failure = try? container.nestedContainer(keyedBy: ErrorKey.self, forKey: .error)
                .decodeIfPresent(String.self, forKey: .message)
        }
        let reportIsNull = container.contains(.report) ? try container.decodeNil(forKey: .report) : true
        let hasReport = container.contains(.report) && !reportIsNull
        guard hasReport else {
            self.event = event
            return
        }
        switch kind {
        case FileKind.crashReport.rawValue, FileKind.kscrash.rawValue:
            let report = try container.decode(CrashReport.self, forKey: .report)
            let nested = try container.nestedContainer(keyedBy: WatchdogKey.self, forKey: .report)
            if let termination = try nested.decodeIfPresent(WatchdogTermination.self, forKey: .watchdog) {
                // A KSCrash watchdog kill carries the watchdog object as an Apple one does.
                event.watchdog = FleetEvent.watchdog(termination, report: report)
                event.hangs = FleetEvent.hang(report, termination: termination).map { [$0] } ?? []
            } else {
                if let crash = FleetEvent.crash(report, source: kind, grouping: grouping) { event.crashes = [crash] }
                event.occurrence = FleetEvent.occurrence(report)
                event.hangs = FleetEvent.hang(report).map { [$0] } ?? []
            }
            event.resource = FleetEvent.resource(report, source: kind)
        case FileKind.watchdogTermination.rawValue:
            let report = try container.decode(CrashReport.self, forKey: .report)
            let nested = try container.nestedContainer(keyedBy: WatchdogKey.self, forKey: .report)
            let termination = try nested.decode(WatchdogTermination.self, forKey: .watchdog)
            event.watchdog = FleetEvent.watchdog(termination, report: report)
            event.resource = FleetEvent.resource(report, source: kind)
            event.hangs = FleetEvent.hang(report, termination: termination).map { [$0] } ?? []
        case FileKind.jetsamEvent.rawValue:
            let jetsam = try container.decode(JetsamEvent.self, forKey: .report)
            // A hash that is not 16 hexadecimal digits is read as none: the envelope is identified by its file.
            let contentHash = try container.decodeIfPresent(String.self, forKey: .contentHash).flatMap(
                ContentHash.value
            )
            event.oom = FleetEvent.oom(jetsam, contentHash: contentHash, file: file)
        case FileKind.resourceReport.rawValue, FileKind.systemWatchdog.rawValue:
            let facts = try container.decode(SystemReportFacts.self, forKey: .report)
            event.occurrence = facts.occurrence(systemWatchdog: kind == FileKind.systemWatchdog.rawValue)
            if kind == FileKind.resourceReport.rawValue { event.resource = facts.resourceFacts() }
        case FileKind.metrickit.rawValue:
            let report = try container.decode(MetricKitReport.self, forKey: .report)
            (event.metricKit, event.crashes) = FleetEvent.metricKit(report, grouping: grouping)
            event.hangs = FleetEvent.hangs(report)
        case FileKind.appStoreConnect.rawValue:
            let report = try container.decode(AppStoreConnectReport.self, forKey: .report)
            event.occurrence = AppStoreConnectFacts.occurrence(report)
            event.hangs = FleetEvent.hangs(report)
        default:
            break
        }
        self.event = event
    }

    /// True when `prefix` (the first bytes of a file) starts like an envelope.
    ///
    /// An envelope starts with `{"diagnostics":[`, keys being written sorted, so that a folder of NDJSON scans is
    /// told from reports by content, not by name. A JetsamEvent's envelope starts with its `contentHash` (16
    /// hexadecimal digits), which sorts first.
    package static func looksLikeNDJSON(prefix: some Collection<UInt8>) -> Bool {
        var start = prefix.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let hashKey = Array(#"{"contentHash":""#.utf8)
        if start.starts(with: hashKey) {
            let digits = String(decoding: start.dropFirst(hashKey.count).prefix(16), as: UTF8.self)
            guard ContentHash.value(digits) != nil,
                start.dropFirst(hashKey.count + 16).starts(with: Array(#"",""#.utf8))
            else { return false }
            start = start.dropFirst(hashKey.count + 16 + 3)
            return start.starts(with: Array(#"diagnostics":["#.utf8))
        }
        return start.starts(with: Array(#"{"diagnostics":["#.utf8))
    }

    /// Decodes one line as an envelope: an event, or an archive's findings.
    package static func envelope(line: [UInt8], grouping: GroupingRules? = nil) throws -> FleetEnvelope {
        let decoder = JSONDecoder()
        if let grouping, let key = groupingKey { decoder.userInfo[key] = grouping }
        return try decoder.decode(FleetEnvelope.self, from: Data(line))
    }

    /// Decodes one line; the error says why a line is not an envelope.
    package static func decode(line: [UInt8]) throws -> FleetEvent {
        try JSONDecoder().decode(FleetEnvelope.self, from: Data(line)).event
    }
}
