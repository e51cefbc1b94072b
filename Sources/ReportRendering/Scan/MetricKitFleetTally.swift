import FleetReport
import Foundation

/// The MetricKit fleet view of a scan, fed by the worker threads: tallies only, so memory stays flat in the
/// number of payloads.
package final class MetricKitFleetTally: @unchecked Sendable {
    private let lock = NSLock()
    private var fleet = MetricKitFleet()

    package init() {}

    package func add(_ figures: [FleetEvent.MetricKitFigures]) {
        lock.lock()
        defer { lock.unlock() }
        for entry in figures { fleet.add(entry) }
    }

    package func summary() -> MetricKitFleetSummary {
        lock.lock()
        defer { lock.unlock() }
        return fleet.summary()
    }
}
