import FleetReport
import ReportInspection

extension Inspection {
    /// What the fleet report keeps of this inspection (the same facts `report` reads back from its NDJSON).
    package var fleetEvent: FleetEvent { fleetEvent(grouping: nil) }

    /// The fleet facts, the crash groups named by `grouping`'s rules (`report --grouping`) when given.
    package func fleetEvent(grouping: GroupingRules?) -> FleetEvent {
        var event = FleetEvent(
            file: file,
            kind: kind.rawValue,
            unreadable: failure != nil,
            failure: failure?.message
        )
        if let report, let views = FamilyRegistry.views(of: report) {
            views.fleetFacts(of: report, inspection: self, into: &event)
            if let grouping, !event.crashes.isEmpty {
                // The rules read the frames, which the facts do not keep: the crashes are made again with them.
                switch report {
                case .crash(let crash):
                    event.crashes =
                        FleetEvent.crash(crash, source: kind.rawValue, grouping: grouping).map { [$0] } ?? []
                case .metricKit(let metricKit):
                    event.crashes = FleetEvent.metricKit(metricKit, grouping: grouping).crashes
                default:
                    break
                }
            }
        }
        return event
    }
}
