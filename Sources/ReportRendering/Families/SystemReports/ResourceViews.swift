import BackendExport
import CrashReportParsing
import FleetReport
import ReportInspection

/// A microstackshot resource report (bug_type 142, 145, 202, 206): CPU, wakeups or disk writes over a limit, counted
/// as an occurrence, never as a crash.
struct ResourceViews: ReportViews {
    func model(of report: Inspection.Report) -> ResourceReport? {
        guard case .resource(let resource) = report else { return nil }
        return resource
    }

    func text(_ report: ResourceReport, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        StyledText(SystemReportRenderer.render(report, file: inspection.file))
    }

    func speaks(of filter: FleetFilter, in report: ResourceReport) -> Bool {
        filter.admitsApp(bundleId: report.header?.bundleID, process: report.process)
    }

    func fleetFacts(_ report: ResourceReport, inspection: Inspection, into event: inout FleetEvent) {
        let occurrence = FleetEvent.occurrence(resource: report)
        event.occurrence = occurrence
        event.resource = FleetEvent.resource(report, context: occurrence.context)
    }

    func backendIncidents(_ report: ResourceReport, imageVMAddress: ImageVMAddressLookup?) -> BackendIncidents {
        BackendIncidents(BackendEvents.incidents(resource: report))
    }
}
