import APMInspectCore
import CrashReportParsing

/// The few keys the fleet report reads back from the envelope of a resource report or a system watchdog crash
/// (their models are written, never read: the fleet needs only who, when and which category).
struct SystemReportFacts: Decodable {
    struct WatchedProcess: Decodable {
        var name: String?
        var isWatchedProcess: Bool?
    }

    /// A frame of the heaviest stack: the keys ``SampledFrame`` writes that name it.
    struct Frame: Decodable {
        var imageIndex: Int?
        var image: String?
        var imageOffset: UInt64?
        var symbol: String?
    }

    var header: IPSHeader?
    var process: String?
    var osVersion: String?
    var isFatal: Bool?
    var processes: [WatchedProcess]?
    var bugType: String?
    var hardwareModel: String?
    var resource: String?
    var heaviestStack: [Frame]?

    /// The resource facts, as ``FleetEvent/resource(_:context:)`` makes them from the model.
    func resourceFacts() -> FleetEvent.Resource {
        let context = occurrence(systemWatchdog: false).context
        return FleetEvent.resource(
            kind: resource ?? "other",
            fatal: isFatal == true,
            bugType: bugType,
            process: process ?? context.process,
            heaviestStack: (heaviestStack ?? []).map {
                SampledFrame(imageIndex: $0.imageIndex, image: $0.image, imageOffset: $0.imageOffset, symbol: $0.symbol)
            },
            context: context
        )
    }

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
                header: header,
                device: systemWatchdog ? nil : hardwareModel
            )
        )
    }
}
