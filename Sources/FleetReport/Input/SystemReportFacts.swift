import APMInspectCore
import CrashReportParsing

/// The few keys the fleet report reads back from the envelope of a resource report or a system watchdog crash
/// (their models are written, never read: the fleet needs only who, when and which category).
struct SystemReportFacts: Decodable {
    struct WatchedProcess: Decodable {
        var name: String?
        var isWatchedProcess: Bool?
    }

    var header: IPSHeader?
    var process: String?
    var osVersion: String?
    var isFatal: Bool?
    var processes: [WatchedProcess]?

    /// The occurrence, as ``FleetEvent/occurrence(resource:)`` and ``FleetEvent/occurrence(systemWatchdog:)``
    /// make it from the models.
    func occurrence(systemWatchdog: Bool) -> FleetEvent.Occurrence {
        let watched = processes?.first { $0.isWatchedProcess == true }?.name
        let category: ReportCategory =
            systemWatchdog ? .systemWatchdog : (isFatal == true ? .resourceKill : .resourceWarning)
        return FleetEvent.Occurrence(
            category: category,
            context: FleetEvent.systemContext(
                process: systemWatchdog ? watched ?? process : process,
                osVersion: osVersion ?? header?.osVersion,
                header: header
            )
        )
    }
}
