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
        guard let report = inspection.report else { return inspection.failure != nil }
        switch report {
        case .crash(let crash), .watchdog(let crash, _):
            return filter.admitsApp(bundleId: crash.bundleId, process: crash.process)
        case .jetsam(let event):
            return filter.admitsJetsam(
                killed: event.killedProcesses.compactMap(\.name),
                frontmost: event.processes.filter { $0.states.contains("frontmost") }.compactMap(\.name)
            )
        case .metricKit(let metricKit):
            return metricKit.payloads.contains { payload in
                let ids = payload.diagnostics.map(\.metadata.bundleIdentifier)
                return (ids + [payload.metrics?.metadata?.bundleIdentifier]).contains {
                    filter.admitsApp(bundleId: $0, process: nil)
                }
            }
        case .resource(let resource):
            return filter.admitsApp(bundleId: resource.header?.bundleID, process: resource.process)
        case .systemWatchdog(let watchdog):
            return filter.admitsApp(
                bundleId: watchdog.header?.bundleID,
                process: watchdog.watchedProcess?.name ?? watchdog.process
            )
        case .ips(let summary):
            return filter.admitsApp(bundleId: summary.header?.bundleID, process: summary.header?.name)
        case .unrecognised, .http, .powerLog, .other:
            return inspection.failure != nil
        }
    }
}
