import APMInspectCore
import JetsamParsing

extension BackendIncident {
    /// The OOM kill a JetsamEvent records: the killed app (frontmost first), else any killed process, else the
    /// largest one; nil for a report with no process at all.
    ///
    /// When that process is a daemon or system process, no app lost its state: the event is a non-fatal system
    /// memory kill rather than a fatal app OutOfMemory, so a backend's crash-free rate is not charged for it.
    package init?(jetsam event: JetsamEvent) {
        let killed = event.killedProcesses
        let rank: (JetsamEvent.Process) -> Int = { process in
            switch process.role {
            case .foregroundApp: 0
            case .backgroundApp: 1
            case .extension: 2
            case .daemon: 3
            }
        }
        let victim =
            killed.enumerated().min { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }?.element
            ?? event.processes.first { $0.name != nil && $0.name == event.largestProcess }
        guard let victim else { return nil }
        if victim.role == .daemon {
            self.init(kind: .systemMemoryKill, exceptionType: "SystemMemoryKill", mechanismType: "jetsam")
            isFatal = false
        } else {
            self.init(kind: .outOfMemory, exceptionType: "OutOfMemory", mechanismType: "out_of_memory")
        }
        var value: [String] = []
        if let reason = victim.reason {
            value.append("\(victim.name ?? "a process") killed by jetsam: \(reason)")
        } else {
            value.append("\(victim.name ?? "a process") was the largest process; no process is marked killed")
        }
        if let footprint = victim.footprintBytes { value.append("footprint \(footprint / 1_048_576) MB") }
        if let limit = victim.limitMB { value.append("limit \(limit) MB") }
        exceptionValue = value.joined(separator: ", ")
        hardwareModel = event.product
        osName = AppleCodes.osName(event.osName)
        osVersion = event.osVersion
        osBuild = event.osBuild
        if let megabytes = event.ram?.nominalMB, megabytes > 0 {
            memorySize = UInt64(megabytes) &* 1_048_576
        }
        process = victim.name
        if let uuid = victim.uuid, uuid.utf8.count == 32 { appBuildID = EventIdentity.dashed(uuid) }
        timestamp = event.date
        incidentID = event.incidentID
        bugType = event.bugType
        var parts = [
            kind == .systemMemoryKill ? "system_oom" : "oom", victim.name ?? "unknown", victim.reason ?? "largest",
        ]
        if let model = event.product { parts.append(model) }
        signature = nil
        fingerprint = parts
        extra.append(("jetsam_role", victim.role.rawValue))
        if let band = victim.priorityBand { extra.append(("jetsam_priority_band", band)) }
        if let reason = event.eventReason { extra.append(("jetsam_event_reason", reason)) }
        if let pages = victim.rpages { extra.append(("resident_pages", String(pages))) }
    }
}
