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

    /// `grouping`: the rules of `report --grouping`, which name the crash groups of the fleet facts.
    package init(_ inspection: Inspection, keepingFleetFacts: Bool = false, grouping: GroupingRules? = nil) {
        path = inspection.file
        if keepingFleetFacts { fleet = inspection.fleetEvent(grouping: grouping) }
        kind = inspection.kind
        failure = inspection.failure.map { failure in
            ErrorLine.render(path: inspection.file, location: failure.location, message: failure.message)
        }
        if let report = inspection.report, let views = FamilyRegistry.views(of: report) {
            views.record(of: report, inspection: inspection, into: &self)
        }
    }
}
