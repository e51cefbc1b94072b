import APMInspectCore
import CrashReportParsing
import FleetReport
import JetsamParsing
import PowerLogReading
import ReportInspection
import WatchdogAnalysis

/// What `scan` keeps of one report after printing it: enough for the inventory, small enough for 100,000 files.
package struct ScanRecord: Sendable {
    package struct Crash: Sendable {
        package var signature: String
        package var process: String
        package var exception: String
        package var topFrame: String?
    }

    package struct Watchdog: Sendable {
        package var process: String
        package var summary: String
        package var verdict: String?
    }

    package var path: String
    package var kind: FileKind
    package var failure: String?
    package var crash: Crash?
    package var watchdog: Watchdog?
    package var jetsam: MemoryLimitEvidence?
    package var jetsamKills = 0
    package var energyTopApps: [String] = []
    /// The facts `report` aggregates; kept only when asked for (`scan` has no use for them).
    package var fleet: FleetEvent?

    package init(_ inspection: Inspection, keepingFleetFacts: Bool = false) {
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
