import APMInspectCore
import FleetReport
import ReportInspection

/// `--app` on `inspect` and `scan`: which files speak of one of the apps, by the rules `report` filters by.
///
/// A report stays when its bundle id or process name is one of the apps; a JetsamEvent when one of them was
/// killed or on screen (its entries name processes, not bundle ids). A file that names no app (an HTTP capture, a
/// PowerLog, a file that was not recognised) is left out; a file that could not be read is kept, so its error is
/// not hidden.
package struct AppSelection: Sendable {
    package let filter: FleetFilter

    /// Nil when no `--app` was given: everything is kept.
    package init?(apps: [String]) {
        guard !apps.isEmpty else { return nil }
        filter = FleetFilter(apps: apps)
    }

    package func keeps(_ inspection: Inspection) -> Bool {
        FamilyRegistry.keeps(inspection, filter: filter)
    }
}
