import APMInspectCore

extension JetsamEvent {
    /// One entry of `processes[]`: a process's memory use at the snapshot, and for killed ones why it was killed.
    public struct Process: Sendable, Equatable, Codable {
        /// The process id at the time of the event.
        public var pid: Int64?
        /// The executable name, truncated by the kernel to 16 (iOS 9) or 32 characters; not a bundle id.
        public var name: String?
        /// The main binary's LC_UUID, lowercased.
        public var uuid: String?
        /// The kernel's states for the process (`frontmost`, `suspended` …), as written.
        public var states: [String]
        /// Resident pages: the physical footprint at the snapshot, refreshed at kill time for killed entries.
        public var rpages: UInt64?
        /// Highest footprint over the process's life, in pages (can be below ``rpages``).
        public var lifetimeMax: UInt64?
        /// Purgeable pages the process held.
        public var purgeable: UInt64?
        /// Open file descriptors.
        public var fds: UInt64?
        /// CPU seconds used.
        public var cpuTime: Double?
        /// The kill cause, verbatim (`per-process-limit`, `vm-pageshortage`, …); only killed entries have one.
        public var reason: String?
        /// Mach ticks since the process started (the timebase is not in the report).
        public var age: UInt64?
        /// Time since the previous kill of the event, as written.
        public var killDelta: UInt64?
        /// The kernel's generation count for the process.
        public var genCount: UInt64?
        /// Time since the process went idle, as written.
        public var idleDelta: UInt64?
        /// The coalition id: an app and the extensions and services accounted with it.
        public var coalition: UInt64?
        /// The peak resident pages the kernel recorded.
        public var pageSpike: UInt64?
        /// The jetsam band as written.
        public var priority: Int64?
        /// The band on the iOS 16+ scale (×10 for older reports; 999 stays 999).
        public var normalizedPriority: Int64?
        /// The band's name (`FOREGROUND`, `IDLE`, …).
        public var priorityBand: String?
        /// Resident pages by kind, where the report splits them.
        public var physicalPages: PhysicalPages?
        /// `freeze_skip_reason:` (the key really ends with a colon).
        public var freezeSkipReason: String?
        /// Mapped memory regions.
        public var memRegions: UInt64?
        /// The code-signing flags: what tells platform binaries from apps.
        public var csFlags: UInt64?
        /// The code-signing trust level.
        public var csTrustLevel: UInt64?
        /// Pages of Neural Engine memory charged to the process.
        public var neuralPages: UInt64?
        /// What kind of process this is, as far as the report tells.
        public var role: ProcessRole
        /// Physical footprint in bytes, `rpages × pageSize`; killed processes only, and only with a known page size.
        public var footprintBytes: UInt64?
        /// The memory limit in MB, `floor(footprintBytes / 2^20)`; only for `per-process-limit` kills.
        public var limitMB: UInt64?
        /// Keys this model does not know, verbatim.
        public var unknownKeys: JSONValue?

        package init(
            pid: Int64? = nil,
            name: String? = nil,
            uuid: String? = nil,
            states: [String] = [],
            rpages: UInt64? = nil,
            lifetimeMax: UInt64? = nil,
            purgeable: UInt64? = nil,
            fds: UInt64? = nil,
            cpuTime: Double? = nil,
            reason: String? = nil,
            age: UInt64? = nil,
            killDelta: UInt64? = nil,
            genCount: UInt64? = nil,
            idleDelta: UInt64? = nil,
            coalition: UInt64? = nil,
            pageSpike: UInt64? = nil,
            priority: Int64? = nil,
            normalizedPriority: Int64? = nil,
            priorityBand: String? = nil,
            physicalPages: PhysicalPages? = nil,
            freezeSkipReason: String? = nil,
            memRegions: UInt64? = nil,
            csFlags: UInt64? = nil,
            csTrustLevel: UInt64? = nil,
            neuralPages: UInt64? = nil,
            role: ProcessRole = .backgroundApp,
            footprintBytes: UInt64? = nil,
            limitMB: UInt64? = nil,
            unknownKeys: JSONValue? = nil
        ) {
            self.pid = pid
            self.name = name
            self.uuid = uuid
            self.states = states
            self.rpages = rpages
            self.lifetimeMax = lifetimeMax
            self.purgeable = purgeable
            self.fds = fds
            self.cpuTime = cpuTime
            self.reason = reason
            self.age = age
            self.killDelta = killDelta
            self.genCount = genCount
            self.idleDelta = idleDelta
            self.coalition = coalition
            self.pageSpike = pageSpike
            self.priority = priority
            self.normalizedPriority = normalizedPriority
            self.priorityBand = priorityBand
            self.physicalPages = physicalPages
            self.freezeSkipReason = freezeSkipReason
            self.memRegions = memRegions
            self.csFlags = csFlags
            self.csTrustLevel = csTrustLevel
            self.neuralPages = neuralPages
            self.role = role
            self.footprintBytes = footprintBytes
            self.limitMB = limitMB
            self.unknownKeys = unknownKeys
        }

        /// True when the process carries a kill reason.
        package var isKilled: Bool { reason != nil }
    }

    /// A process's `physicalPages` breakdown (iOS 14+), omitted by the generator when empty.
    public struct PhysicalPages: Sendable, Equatable, Codable {
        /// `[internal, internal_compressed]` pages.
        public var `internal`: [UInt64]?
        /// Pages the freezer wrote to swap.
        public var frozenToSwapPages: UInt64?
        /// Internal-build counters and any other keys, verbatim.
        public var unknownKeys: JSONValue?

        package init(internal: [UInt64]? = nil, frozenToSwapPages: UInt64? = nil, unknownKeys: JSONValue? = nil) {
            self.internal = `internal`
            self.frozenToSwapPages = frozenToSwapPages
            self.unknownKeys = unknownKeys
        }
    }
}
