import APMInspectCore

/// A system watchdog crash (bug_type 409): a userspace watchdog found a service it monitors unresponsive and took
/// the device (or the service) down.
///
/// Not an app crash and not an app hang: the report names the process the watchdog gave up on, why, and a
/// stackshot of every process at that moment, with frames as image indexes and offsets.
public struct SystemWatchdogReport: Sendable, Encodable {
    /// The watchdog's verdict, from `termination`.
    package struct Termination: Sendable, Equatable, Encodable {
        package var namespace: String?
        package var code: Int64?
        package var indicator: String?
        package var details: [String]
    }

    /// One image of the report's image list, which frames name by index.
    package struct Image: Sendable, Equatable, Encodable {
        package var index: Int
        package var uuid: String?
        package var name: String?
        package var path: String?
        package var loadAddress: HexValue?
    }

    /// A thread of the stackshot and its sampled frames.
    package struct Thread: Sendable, Equatable, Encodable {
        package var id: Int64?
        package var name: String?
        package var state: [String]
        package var basePriority: Int64?
        package var userMicroseconds: Int64?
        package var systemMicroseconds: Int64?
        /// Innermost first, as the stackshot lists them.
        package var frames: [SampledFrame]
    }

    /// A process of the stackshot and its threads.
    package struct Process: Sendable, Equatable, Encodable {
        package var pid: Int64?
        package var name: String?
        /// True for the process the watchdog named (by pid, or by name when the report's pid is -1).
        package var isWatchedProcess: Bool
        package var threads: [Thread]
    }

    package var header: IPSHeader?
    package var bugType: String?
    /// The name of `bugType` in Apple's table.
    package var bugTypeName: String?
    /// The process the watchdog gave up on.
    package var process: String?
    /// Its pid; -1 in reports where the watchdog could not name one (kept as written).
    package var pid: Int64?
    /// The OS build; absent from some real reports.
    package var build: String?
    package var modelCode: String?
    package var displayState: String?
    package var thermalPressureLevel: String?
    package var termination: Termination?
    package var reportNotes: [String]
    package var images: [Image]
    /// The stackshot's processes, the watched one first.
    package var processes: [Process]
    /// How many threads and frames the stackshot had in all, besides what was kept.
    package var threadCount: Int
    package var frameCount: Int

    /// Always true: the report is a system event, never the crash of an app.
    package var isNotACrash: Bool { true }
    /// The kind of event, for readers that group reports: `systemWatchdog`.
    package var category: String { "systemWatchdog" }

    /// The process the watchdog named, as the stackshot has it.
    package var watchedProcess: Process? { processes.first(where: \.isWatchedProcess) }

    private enum CodingKeys: String, CodingKey {
        case header, bugType, bugTypeName, process, pid, build, modelCode, displayState, thermalPressureLevel
        case termination, reportNotes, images, processes, threadCount, frameCount, isNotACrash, category
    }

    /// Writes the JSON form documented in docs/json-output.md.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(header, forKey: .header)
        try container.encodeIfPresent(bugType, forKey: .bugType)
        try container.encodeIfPresent(bugTypeName, forKey: .bugTypeName)
        try container.encodeIfPresent(process, forKey: .process)
        try container.encodeIfPresent(pid, forKey: .pid)
        try container.encodeIfPresent(build, forKey: .build)
        try container.encodeIfPresent(modelCode, forKey: .modelCode)
        try container.encodeIfPresent(displayState, forKey: .displayState)
        try container.encodeIfPresent(thermalPressureLevel, forKey: .thermalPressureLevel)
        try container.encodeIfPresent(termination, forKey: .termination)
        try container.encode(reportNotes, forKey: .reportNotes)
        try container.encode(images, forKey: .images)
        try container.encode(processes, forKey: .processes)
        try container.encode(threadCount, forKey: .threadCount)
        try container.encode(frameCount, forKey: .frameCount)
        try container.encode(isNotACrash, forKey: .isNotACrash)
        try container.encode(category, forKey: .category)
    }
}
