import FleetReport
import ReportInspection

extension Inspection {
    /// What the fleet report keeps of this inspection (the same facts `report` reads back from its NDJSON).
    package var fleetEvent: FleetEvent {
        var event = FleetEvent(file: file, kind: kind.rawValue, unreadable: failure != nil)
        switch report {
        case .crash(let report):
            if let crash = FleetEvent.crash(report, source: kind.rawValue) { event.crashes = [crash] }
            event.occurrence = FleetEvent.occurrence(report)
        case .watchdog(let report, let termination):
            event.watchdog = FleetEvent.watchdog(termination, report: report)
        case .jetsam(let jetsam):
            event.oom = FleetEvent.oom(jetsam, contentHash: contentHash, file: file)
        case .resource(let report):
            event.occurrence = FleetEvent.occurrence(resource: report)
        case .systemWatchdog(let report):
            event.occurrence = FleetEvent.occurrence(systemWatchdog: report)
        case .metricKit(let report):
            (event.metricKit, event.crashes) = FleetEvent.metricKit(report)
        default:
            break
        }
        return event
    }
}
