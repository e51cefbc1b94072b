import BackendExport
import FleetReport
import MetricKitParsing
import ReportInspection

extension BackendEventPrinter {
    /// The fleet report's facts of each incident that is a crash it counts, nil for the others (hangs, watchdog
    /// kills, OOMs …), in the incidents' order; nil when the incidents cannot be paired with the report's crashes,
    /// which then stream unlinked.
    ///
    /// The facts are the fleet report's own (`FleetEvent.crash(_:source:grouping:)`), so `scan` links exactly
    /// what `report` links.
    static func crashFacts(of inspection: Inspection, incidents: [BackendIncident]) -> [FleetEvent.Crash?]? {
        guard let report = inspection.report else { return nil }
        switch report {
        case .crash(let crash):
            guard incidents.count == 1, incidents[0].kind == .crash else { return nil }
            return [FleetEvent.crash(crash, source: inspection.kind.rawValue)]
        case .metricKit(let metricKit):
            // Each crash diagnostic gives one incident, in payload order, and no other diagnostic gives a crash's.
            var crashes: [FleetEvent.Crash?] = []
            for payload in metricKit.payloads {
                for diagnostic in payload.diagnostics where diagnostic.kind == .crash {
                    crashes.append(FleetEvent.crash(metricKit: diagnostic, payload: payload, grouping: nil))
                }
            }
            var next = crashes.makeIterator()
            var facts: [FleetEvent.Crash?] = []
            facts.reserveCapacity(incidents.count)
            for incident in incidents {
                guard incident.kind == .metricKitCrash else {
                    facts.append(nil)
                    continue
                }
                guard let crash = next.next() else { return nil }
                facts.append(crash)
            }
            return next.next() == nil ? facts : nil
        default:
            return nil
        }
    }
}
