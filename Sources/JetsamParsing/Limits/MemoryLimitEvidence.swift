import APMInspectCore

/// What one JetsamEvent says about memory limits: the device, the OS, and the limits its kills reveal.
///
/// Small and self-contained, so thousands of reports can be aggregated without keeping their process lists.
public struct MemoryLimitEvidence: Sendable, Equatable, Codable {
    /// One `per-process-limit` kill.
    public struct Kill: Sendable, Equatable, Codable {
        /// Whether the app was on screen, in the background or an extension: which limit it hit.
        public var role: ProcessRole
        /// The killed process's name.
        public var name: String?
        /// The limit it was killed at, in MB.
        public var limitMB: UInt64

        package init(role: ProcessRole, name: String?, limitMB: UInt64) {
            self.role = role
            self.name = name
            self.limitMB = limitMB
        }
    }

    /// Identifies the incident, so copies of one report (`.ips` and `.ips.synced`) count once.
    package var identity: String
    package var product: String?
    package var osName: String?
    package var osVersion: String?
    package var osBuild: String?
    package var platform: OSVersion.Platform
    package var isBetaBuild: Bool
    package var isModifiedKernel: Bool
    package var estimatedRAMMB: Double?
    /// False when the report has no page size, so its kills give no limits.
    package var hasPageSize: Bool
    package var kills: [Kill]

    /// Evidence from its parts, as `MemoryLimitEvidence(event:contentHash:)` derives them.
    public init(
        identity: String,
        product: String?,
        osName: String?,
        osVersion: String?,
        osBuild: String?,
        platform: OSVersion.Platform,
        isBetaBuild: Bool,
        isModifiedKernel: Bool,
        estimatedRAMMB: Double?,
        hasPageSize: Bool,
        kills: [Kill]
    ) {
        self.identity = identity
        self.product = product
        self.osName = osName
        self.osVersion = osVersion
        self.osBuild = osBuild
        self.platform = platform
        self.isBetaBuild = isBetaBuild
        self.isModifiedKernel = isModifiedKernel
        self.estimatedRAMMB = estimatedRAMMB
        self.hasPageSize = hasPageSize
        // The kills are a set: the table only counts them per role. In one order, the fast path and the full model
        // agree however a damaged body interleaves its `processes` list with process fields among the body's (the
        // fuzz smoke run found the list read first by one and second by the other).
        self.kills = kills.sorted { a, b in
            (a.limitMB, a.role.rawValue, a.name ?? "") < (b.limitMB, b.role.rawValue, b.name ?? "")
        }
    }

    /// The evidence in a parsed report.
    ///
    /// - Parameters:
    ///   - event: The report.
    ///   - contentHash: A hash of the file's bytes, used as its identity when it has no incident id.
    public init(event: JetsamEvent, contentHash: UInt64) {
        self.init(event: event, identity: Self.identity(of: event) { "content:\(ContentHash.text(contentHash))" })
    }

    /// The evidence in a parsed report whose content hash may not be known (an envelope written before envelopes
    /// carried `contentHash`): then, without an incident id, `file` is its identity, and copies in two places
    /// count twice.
    public init(event: JetsamEvent, contentHash: UInt64?, file: String) {
        if let contentHash {
            self.init(event: event, contentHash: contentHash)
        } else {
            self.init(event: event, identity: Self.identity(of: event) { "file:\(file)" })
        }
    }

    private init(event: JetsamEvent, identity: String) {
        var kills: [Kill] = []
        for process in event.processes {
            guard let limit = process.limitMB else { continue }
            kills.append(Kill(role: process.role, name: process.name, limitMB: limit))
        }
        self.init(
            event: event,
            identity: identity,
            isModifiedKernel: event.isModifiedKernel,
            estimatedRAMMB: event.ram?.estimatedMB,
            hasPageSize: event.pageSize != nil,
            kills: kills
        )
    }

    /// The evidence with the header fields `event` states; the figures the full model and the memory-limit fast
    /// path work out each their own way are given.
    init(
        event: JetsamEvent,
        identity: String,
        isModifiedKernel: Bool,
        estimatedRAMMB: Double?,
        hasPageSize: Bool,
        kills: [Kill]
    ) {
        self.init(
            identity: identity,
            product: event.product,
            osName: event.osName,
            osVersion: event.osVersion,
            osBuild: event.osBuild,
            platform: event.platform,
            isBetaBuild: event.isBetaBuild,
            isModifiedKernel: isModifiedKernel,
            estimatedRAMMB: estimatedRAMMB,
            hasPageSize: hasPageSize,
            kills: kills
        )
    }

    /// The incident id with the crash reporter key, or, for a report without an incident id, `otherwise` (asked
    /// for only then).
    static func identity(of event: JetsamEvent, otherwise: () -> String) -> String {
        if let incident = event.incidentID, !incident.isEmpty {
            return "\(incident.uppercased())|\(event.crashReporterKey ?? "")"
        }
        return otherwise()
    }

    /// The incident id with the crash reporter key, or, for a report without an incident id, the content hash
    /// (asked for only then).
    static func identity(of event: JetsamEvent, contentHash: () -> UInt64) -> String {
        identity(of: event) { "content:\(ContentHash.text(contentHash()))" }
    }

    /// The identity of reports without an incident id: `ContentHash/of(_:)` of the file's bytes.
    public static func contentHash(_ bytes: [UInt8]) -> UInt64 {
        ContentHash.of(bytes)
    }
}
