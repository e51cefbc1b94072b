import APMInspectCore

/// A microstackshot resource report (bug_type 142 wakeups, 145 disk writes, 202 CPU usage, 206 CPU usage fatal): a process
/// went over a resource budget, and the OS sampled it while it did.
///
/// Not a crash: a warning (202, 145: "Action taken: none") or a fatal resource kill (206: the process was
/// killed). The report is a JSON header over a text body; the model keeps the resource, the limit, what was
/// observed, over how long, and the heaviest stack as image-and-offset frames.
public struct ResourceReport: Sendable, Encodable {
    /// The budget the process went over.
    package enum Resource: String, Sendable, Equatable, Encodable {
        case diskWrites
        case cpu
        case wakeups
        case other
    }

    /// A figure as the report prints it (`1073.74 MB`, `48s`, `80%`), with its number and unit apart.
    package struct Figure: Sendable, Equatable, Encodable {
        package var value: Double
        package var unit: String
        package var text: String
    }

    /// One `Key: value` line of the body, kept verbatim.
    package struct Field: Sendable, Equatable, Encodable {
        package var key: String
        package var value: String
    }

    package var header: IPSHeader?
    package var bugType: String?
    package var bugTypeName: String?
    package var resource: Resource
    /// The body's `Event` (`disk writes`, `cpu usage`).
    package var event: String?
    /// The body's `Action taken` (`none`, `Process killed`).
    package var actionTaken: String?
    /// True when the OS killed the process for it (206, or an action that says so).
    package var isFatal: Bool
    package var process: String?
    package var path: String?
    package var pid: Int64?
    package var osVersion: String?
    package var architecture: String?
    package var hardwareModel: String?
    /// The sentence that states the overrun (the `Writes:` or `CPU:` line).
    package var summary: String?
    /// The budget (`Writes limit`, `CPU limit`).
    package var limit: Figure?
    /// The window the budget is over, in seconds (`Limit duration`).
    package var limitDurationSeconds: Double?
    /// What the process used (`Writes caused`, `CPU used`, or the figure the summary opens with).
    package var observed: Figure?
    /// The time it used it over, in seconds (`Writes duration`, `CPU duration`, or the summary's).
    package var observedDurationSeconds: Double?
    /// The report's span (`Duration`) and how much of it was sampled (`Duration Sampled`), in seconds.
    package var durationSeconds: Double?
    package var durationSampledSeconds: Double?
    /// The number of samples (`Steps`).
    package var steps: Int?
    /// The heaviest stack of the target process, outermost first as the report lists it.
    package var heaviestStack: [SampledFrame]
    /// Every `Key: value` line before the stacks, in order.
    package var fields: [Field]

    /// Always true: a resource report is a resource event, never a crash.
    package var isNotACrash: Bool { true }
    /// `resourceKill` for a fatal report, `resourceWarning` otherwise.
    package var category: String { isFatal ? "resourceKill" : "resourceWarning" }

    private enum CodingKeys: String, CodingKey {
        case header, bugType, bugTypeName, resource, event, actionTaken, isFatal, process, path, pid, osVersion
        case architecture, hardwareModel, summary, limit, limitDurationSeconds, observed, observedDurationSeconds
        case durationSeconds, durationSampledSeconds, steps, heaviestStack, fields, isNotACrash, category
    }

    /// Writes the JSON form documented in docs/json-output.md.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(header, forKey: .header)
        try c.encodeIfPresent(bugType, forKey: .bugType)
        try c.encodeIfPresent(bugTypeName, forKey: .bugTypeName)
        try c.encode(resource, forKey: .resource)
        try c.encodeIfPresent(event, forKey: .event)
        try c.encodeIfPresent(actionTaken, forKey: .actionTaken)
        try c.encode(isFatal, forKey: .isFatal)
        try c.encodeIfPresent(process, forKey: .process)
        try c.encodeIfPresent(path, forKey: .path)
        try c.encodeIfPresent(pid, forKey: .pid)
        try c.encodeIfPresent(osVersion, forKey: .osVersion)
        try c.encodeIfPresent(architecture, forKey: .architecture)
        try c.encodeIfPresent(hardwareModel, forKey: .hardwareModel)
        try c.encodeIfPresent(summary, forKey: .summary)
        try c.encodeIfPresent(limit, forKey: .limit)
        try c.encodeIfPresent(limitDurationSeconds, forKey: .limitDurationSeconds)
        try c.encodeIfPresent(observed, forKey: .observed)
        try c.encodeIfPresent(observedDurationSeconds, forKey: .observedDurationSeconds)
        try c.encodeIfPresent(durationSeconds, forKey: .durationSeconds)
        try c.encodeIfPresent(durationSampledSeconds, forKey: .durationSampledSeconds)
        try c.encodeIfPresent(steps, forKey: .steps)
        try c.encode(heaviestStack, forKey: .heaviestStack)
        try c.encode(fields, forKey: .fields)
        try c.encode(isNotACrash, forKey: .isNotACrash)
        try c.encode(category, forKey: .category)
    }
}
