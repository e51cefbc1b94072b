import APMInspectCore

/// A JetsamEvent report (`.ips`, bug_type 298): the memory state of a device when the kernel killed processes
/// to reclaim memory, with every process it listed.
///
/// Counters are 64-bit, fields absent from the report are nil (not zero), and keys this model does not know are
/// kept verbatim in ``unknownKeys``. Byte figures are computed only when the report states its page size.
public struct JetsamEvent: Sendable, Equatable, Codable {
    /// The `.ips` header line, when the file had one.
    public var header: IPSHeader?
    /// `bug_type` from the header or the body.
    public var bugType: String?
    /// `incident` (body) or `incident_id` (header).
    public var incidentID: String?
    /// The anonymous per-device key: tells reports from one device apart from many.
    public var crashReporterKey: String?
    /// Model identifier, such as `iPhone8,2`.
    public var product: String?
    /// Marketing name from the device catalog, such as `iPhone 6s Plus`.
    public var deviceName: String?
    /// The OS name as written (`iPhone OS`, `macOS`).
    public var osName: String?
    /// The OS version number, such as `13.3.1`.
    public var osVersion: String?
    /// The OS build, such as `17D50`.
    public var osBuild: String?
    /// True for beta and seed builds.
    public var isBetaBuild: Bool
    /// The platform the event comes from.
    public var platform: OSVersion.Platform
    /// The kernel version string, which marks modified or development kernels.
    public var kernel: String?
    /// The xnu version from ``kernel``, such as `7195.40.113.0.2`.
    public var xnuVersion: String?
    /// True when the kernel string shows a modified (jailbroken) kernel.
    public var isModifiedKernel: Bool
    /// Capture time from the body's `date`.
    public var date: AppleTimestamp?
    /// Milliseconds between the snapshot and its consumption (`timeDelta`).
    public var timeDelta: UInt64?
    /// The process holding the most memory when the event was written.
    public var largestProcess: String?
    /// The kernel's generation counter at the event.
    public var genCounter: UInt64?
    /// The code-signing monitor in use, as written.
    public var codeSigningMonitor: Int64?
    /// Bytes per page, from `memoryStatus.pageSize` or a top-level `pageSize`; nil when the report has neither.
    public var pageSize: UInt64?
    /// Which key gave ``pageSize``: `memoryStatus.pageSize` or `pageSize`.
    public var pageSizeSource: String?
    /// The system's memory figures at the event.
    public var memoryStatus: MemoryStatus?
    /// Physical memory estimated from the page counts next to the catalog's nominal RAM.
    public var ram: RAMEstimate?
    /// The priority scale the report uses (the band numbers changed ×10 in iOS 16).
    public var priorityScale: PriorityScale?
    /// Every process listed, killed or not: the kills are the ones with a ``Process/reason``.
    public var processes: [Process]
    /// Generator notes (`notes`), event reason and code when present.
    public var notes: [String]?
    /// Why the event was written, as the report says.
    public var eventReason: String?
    /// The event's code, as written.
    public var eventCode: String?
    /// True when the report was an excerpt, truncated, or repaired: figures cover only what was read.
    public var isPartial: Bool
    /// Body keys this model does not know, verbatim.
    public var unknownKeys: JSONValue?

    /// An event from its parts, for a family or a test that builds one.
    package init(
        header: IPSHeader? = nil,
        bugType: String? = nil,
        incidentID: String? = nil,
        crashReporterKey: String? = nil,
        product: String? = nil,
        deviceName: String? = nil,
        osName: String? = nil,
        osVersion: String? = nil,
        osBuild: String? = nil,
        isBetaBuild: Bool = false,
        platform: OSVersion.Platform = .unknown,
        kernel: String? = nil,
        xnuVersion: String? = nil,
        isModifiedKernel: Bool = false,
        date: AppleTimestamp? = nil,
        timeDelta: UInt64? = nil,
        largestProcess: String? = nil,
        genCounter: UInt64? = nil,
        codeSigningMonitor: Int64? = nil,
        pageSize: UInt64? = nil,
        pageSizeSource: String? = nil,
        memoryStatus: MemoryStatus? = nil,
        ram: RAMEstimate? = nil,
        priorityScale: PriorityScale? = nil,
        processes: [Process] = [],
        notes: [String]? = nil,
        eventReason: String? = nil,
        eventCode: String? = nil,
        isPartial: Bool = false,
        unknownKeys: JSONValue? = nil
    ) {
        self.header = header
        self.bugType = bugType
        self.incidentID = incidentID
        self.crashReporterKey = crashReporterKey
        self.product = product
        self.deviceName = deviceName
        self.osName = osName
        self.osVersion = osVersion
        self.osBuild = osBuild
        self.isBetaBuild = isBetaBuild
        self.platform = platform
        self.kernel = kernel
        self.xnuVersion = xnuVersion
        self.isModifiedKernel = isModifiedKernel
        self.date = date
        self.timeDelta = timeDelta
        self.largestProcess = largestProcess
        self.genCounter = genCounter
        self.codeSigningMonitor = codeSigningMonitor
        self.pageSize = pageSize
        self.pageSizeSource = pageSizeSource
        self.memoryStatus = memoryStatus
        self.ram = ram
        self.priorityScale = priorityScale
        self.processes = processes
        self.notes = notes
        self.eventReason = eventReason
        self.eventCode = eventCode
        self.isPartial = isPartial
        self.unknownKeys = unknownKeys
    }

    /// The processes that carry a kill `reason`.
    package var killedProcesses: [Process] { processes.filter { $0.reason != nil } }
}
