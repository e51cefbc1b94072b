import APMInspectCore
import CrashReportParsing
import FleetReport
import JetsamParsing
import PowerLogReading
import ReportInspection
import WatchdogAnalysis

/// What `scan` keeps of one report after printing it: enough for the inventory, small enough for 100,000 files.
struct ScanRecord: Sendable {
    struct Crash: Sendable {
        var signature: String
        var process: String
        var exception: String
        var topFrame: String?
    }

    struct Watchdog: Sendable {
        var process: String
        var summary: String
        var verdict: String?
    }

    var path: String
    var kind: FileKind
    var failure: String?
    var crash: Crash?
    var watchdog: Watchdog?
    var jetsam: MemoryLimitEvidence?
    var jetsamKills = 0
    var energyTopApps: [String] = []
    /// The facts `report` aggregates; kept only when asked for (`scan` has no use for them).
    var fleet: FleetEvent?

    init(_ inspection: Inspection, keepingFleetFacts: Bool = false) {
        path = inspection.file
        if keepingFleetFacts { fleet = inspection.fleetEvent }
        kind = inspection.kind
        failure = inspection.failure.map { failure in
            ErrorLine.render(path: inspection.file, location: failure.location, message: failure.message)
        }
        switch inspection.report {
        case .crash(let report):
            crash = Self.crash(report)
        case .watchdog(let report, let watchdog):
            // OS kills are listed on their own, not mixed into crash signatures.
            self.watchdog = Watchdog(
                process: report.process ?? "?",
                summary: WatchdogRenderer.verdict(watchdog, report: report),
                verdict: watchdog.diagnosis?.summary
            )
        case .powerLog(let report):
            energyTopApps = report.apps.filter { $0.kind == .app }.prefix(5).map { app in
                "\(app.name) \(Formatting.oneDecimal(app.share * 100)) %"
            }
        case .jetsam(let event):
            jetsam = MemoryLimitEvidence(event: event, contentHash: inspection.contentHash, file: inspection.file)
            jetsamKills = event.killedProcesses.count
        default:
            break
        }
    }

    private static func crash(_ report: CrashReport) -> Crash? {
        guard let signature = report.signature, !report.isNotACrash, report.category ?? .crash == .crash else {
            return nil
        }
        let exception = report.exception?.typeAndSignal ?? ""
        return Crash(
            signature: signature,
            process: report.process ?? "?",
            exception: exception.isEmpty ? "?" : exception,
            topFrame: report.signatureFrames?.first
        )
    }
}
