import FleetReport
import ReportInspection

extension Inspection {
    /// What the fleet report keeps of this inspection (the same facts `report` reads back from its NDJSON).
    package var fleetEvent: FleetEvent {
        var event = FleetEvent(
            file: file,
            kind: kind.rawValue,
            unreadable: failure != nil,
            failure: failure?.message
        )
        if let report, let views = FamilyRegistry.views(of: report) {
            views.fleetFacts(of: report, inspection: self, into: &event)
        }
        return event
    }
}
