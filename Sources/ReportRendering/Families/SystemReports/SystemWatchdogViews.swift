import BackendExport
import CrashReportParsing
import FleetReport
import ReportInspection

/// A system watchdog report (bug_type 409): an Apple daemon's kill of a process that stopped answering, counted
/// as an occurrence, never as a crash.
struct SystemWatchdogViews: ReportViews {
    func model(of report: Inspection.Report) -> SystemWatchdogReport? {
        guard case .systemWatchdog(let watchdog) = report else { return nil }
        return watchdog
    }

    func text(_ report: SystemWatchdogReport, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        StyledText(SystemReportRenderer.render(report, file: inspection.file))
    }

    /// The watched process is the app; the reporting daemon is not.
    func speaks(of filter: FleetFilter, in report: SystemWatchdogReport) -> Bool {
        filter.admitsApp(bundleId: report.header?.bundleID, process: report.watchedProcess?.name ?? report.process)
    }

    func fleetFacts(_ report: SystemWatchdogReport, inspection: Inspection, into event: inout FleetEvent) {
        event.occurrence = FleetEvent.occurrence(systemWatchdog: report)
    }

    func backendIncidents(_ report: SystemWatchdogReport, imageVMAddress: ImageVMAddressLookup?) -> BackendIncidents {
        BackendIncidents(BackendEvents.incidents(systemWatchdog: report))
    }
}
