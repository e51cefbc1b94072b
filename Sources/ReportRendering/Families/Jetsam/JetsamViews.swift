import BackendExport
import FleetReport
import JetsamParsing
import ReportInspection

/// A JetsamEvent: its kill table, the memory-limit evidence `scan` and `memory-limits` keep, the OOMs the fleet
/// report counts.
struct JetsamViews: ReportViews {
    func model(of report: Inspection.Report) -> JetsamEvent? {
        guard case .jetsam(let event) = report else { return nil }
        return event
    }

    func text(_ event: JetsamEvent, inspection: Inspection, crashView: CrashViewOptions) -> StyledText {
        StyledText(JetsamRenderer.render(event, file: inspection.file))
    }

    /// Its entries name processes, not bundle ids: the app was killed or on screen.
    func speaks(of filter: FleetFilter, in event: JetsamEvent) -> Bool {
        filter.admitsJetsam(
            killed: event.killedProcesses.compactMap(\.name),
            frontmost: event.processes.filter { $0.states.contains("frontmost") }.compactMap(\.name)
        )
    }

    func record(_ event: JetsamEvent, inspection: Inspection, into record: inout ScanRecord) {
        record.jetsam = MemoryLimitEvidence(event: event, contentHash: inspection.contentHash, file: inspection.file)
        record.jetsamKills = event.killedProcesses.count
    }

    func fleetFacts(_ event: JetsamEvent, inspection: Inspection, into fleet: inout FleetEvent) {
        fleet.oom = FleetEvent.oom(event, contentHash: inspection.contentHash, file: inspection.file)
    }

    func backendIncidents(_ event: JetsamEvent, imageVMAddress: ImageVMAddressLookup?) -> BackendIncidents {
        BackendIncidents(BackendEvents.incidents(jetsam: event), whenEmpty: "the JetsamEvent lists no process")
    }
}
