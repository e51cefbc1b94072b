import BackendExport
import CrashReportParsing
import FleetReport
import ReportInspection
import WatchdogAnalysis

/// A watchdog termination: the crash report with the diagnosis of what blocked the main thread; listed apart
/// from crash signatures in `scan` and counted as an OS kill in the fleet report.
struct WatchdogViews: ReportViews {
    typealias WatchdogModel = (report: CrashReport, termination: WatchdogTermination)

    func model(of report: Inspection.Report) -> WatchdogModel? {
        guard case .watchdog(let crash, let termination) = report else { return nil }
        return (crash, termination)
    }

    func text(_ model: WatchdogModel, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        WatchdogRenderer.render(model.termination, report: model.report, file: inspection.file, options: crashView)
    }

    func speaks(of filter: FleetFilter, in model: WatchdogModel) -> Bool {
        filter.admitsApp(bundleId: model.report.bundleId, process: model.report.process)
    }

    func record(_ model: WatchdogModel, inspection: Inspection, into record: inout ScanRecord) {
        record.watchdog = ScanRecord.Watchdog(
            process: model.report.process ?? "?",
            summary: WatchdogRenderer.verdict(model.termination, report: model.report),
            verdict: model.termination.diagnosis?.summary
        )
    }

    func fleetFacts(_ model: WatchdogModel, inspection: Inspection, into event: inout FleetEvent) {
        event.watchdog = FleetEvent.watchdog(model.termination, report: model.report)
        event.resource = FleetEvent.resource(model.report, source: inspection.kind.rawValue)
        event.hangs = FleetEvent.hang(model.report, termination: model.termination).map { [$0] } ?? []
    }

    func backendIncidents(_ model: WatchdogModel, imageVMAddress: ImageVMAddressLookup?) -> BackendIncidents {
        BackendIncidents(
            BackendEvents.incidents(crash: model.report, watchdog: model.termination, imageVMAddress: imageVMAddress),
            whenEmpty: "a stackshot, not a termination"
        )
    }
}
