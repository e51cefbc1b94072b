import APMInspectCore

/// An Apple crash report, read from any of its shapes: legacy text, `.ips` 109 (JSON header, text body), `.ips` 309
/// (JSON body), Console's translated wrapper, and fragments pasted into prose.
///
/// Fields absent from the report are nil. Addresses, registers and codes are `HexValue`s (hex strings in JSON).
/// What the model does not know is kept: unknown JSON keys in ``unknownKeys``, unknown text blocks in ``blocks``.
public struct CrashReport: Sendable, Equatable, Codable {
    /// The shape the report was read from.
    public enum SourceFormat: String, Sendable, Equatable, Codable {
        /// `.ips` with a JSON body (bug_type 309).
        case ips309
        /// `.ips` with a JSON header over a text body (bug_type 109, or a translated 309).
        case ipsText
        /// A legacy text report.
        case text
        /// Console's "Translated Report (Full Report Below)" export.
        case translatedText
        /// Part of a report: no header, or pasted starting mid-report.
        case fragment
        /// A KSCrash JSON report (or one of a KSCrash-derived SDK: SentryCrash, Bugsnag).
        case kscrash
        /// Spindump text: a macOS `.hang` or `.spin` report, or an `.ips` hang report with that body. Each thread is
        /// its heaviest sampled stack.
        case spindump
    }

    /// Which shape the report was read from: what the other fields could have held.
    public var sourceFormat: SourceFormat
    /// The `.ips` JSON header line, for reports that have one.
    public var header: IPSHeader?
    /// The incident's UUID: the same crash read from two copies has one id.
    public var incidentID: String?
    /// The anonymous per-device key: tells reports from one device apart from many.
    public var crashReporterKey: String?
    /// The TestFlight beta identifier, for beta builds.
    public var betaIdentifier: String?
    /// Model identifier, such as `iPhone14,2` or `MacBookPro18,3`.
    public var hardwareModel: String?
    /// Marketing name from the device catalog.
    public var deviceName: String?
    /// The crashed process's name.
    public var process: String?
    /// The crashed process's pid.
    public var pid: Int64?
    /// The executable's path on the device.
    public var path: String?
    /// The app's bundle identifier.
    public var bundleId: String?
    /// CFBundleShortVersionString (`1.0.4`).
    public var appVersion: String?
    /// CFBundleVersion (`12`).
    public var appBuild: String?
    /// `ARM-64`, `X86-64` … without the `(Native)` suffix.
    public var codeType: String?
    /// True when the process ran under Rosetta 2 (an x86-64 binary on Apple silicon).
    public var isTranslated: Bool?
    /// The process's role when it crashed (`Foreground`, `Background` …).
    public var role: String?
    /// The parent process's name (`launchd` for most apps).
    public var parentProcess: String?
    /// The parent process's pid.
    public var parentPid: Int64?
    /// The process macOS holds responsible (the app of an XPC service).
    public var responsibleProcess: String?
    /// The responsible process's pid.
    public var responsiblePid: Int64?
    /// The coalition's name: the app and the helpers the system accounts together.
    public var coalition: String?
    /// The coalition's id.
    public var coalitionId: Int64?
    /// When the crash happened, in the device's local time with its offset.
    public var date: AppleTimestamp?
    /// When the process was launched: with ``date``, how long it ran.
    public var launchTime: AppleTimestamp?
    /// The OS version as written (`iPhone OS 15.5 (19F77)`).
    public var osVersion: String?
    /// The OS name (`iPhone OS`, `macOS`).
    public var osName: String?
    /// The OS version number alone (`15.5`), for comparisons.
    public var osVersionNumber: String?
    /// The OS build (`19F77`), which tells betas and seeds apart.
    public var osBuild: String?
    /// The OS release type (`User`, `Beta` …), as written.
    public var releaseType: String?
    /// The platform the report comes from, for rules that differ by OS.
    public var platform: OSVersion.Platform
    /// The report format version, as written.
    public var reportVersion: String?
    /// Why the process died: exception type, codes, signal.
    public var exception: Exception?
    /// The termination reason, when the OS ended the process (watchdog, jetsam …).
    public var termination: Termination?
    /// Index into ``threads`` of the thread that crashed (or was attributed, for EXC_RESOURCE).
    public var crashedThread: Int?
    /// The `Application Specific Information` lines (asserts, abort messages).
    public var applicationSpecificInformation: [String]?
    /// Where an uncaught Objective-C or C++ exception was thrown, before it unwound.
    public var lastExceptionBacktrace: [Frame]?
    /// Every thread's backtrace, in report order.
    public var threads: [Thread]
    /// The loaded images: what frames are attributed to and what dSYMs must match.
    public var binaryImages: [BinaryImage]
    /// Text blocks as written (`Kernel Triage`, `VM Region Info`, `Filtered syslog`, third-party extras …).
    public var blocks: [Block]
    /// A stable hash of the exception kind and the app's own top frames, for grouping duplicates.
    public var signature: String?
    /// The frames that went into ``signature``, for people to check.
    public var signatureFrames: [String]?
    /// True for `SIMULATED` or `NON-FATAL CONDITION` reports, which are not crashes.
    public var isNotACrash: Bool
    /// True when the report is a fragment or was cut off.
    public var isPartial: Bool
    /// JSON keys (309) or header lines (text) this model does not know, verbatim.
    @LazyUnknownKeys public var unknownKeys: JSONValue?
    /// What the report records when its reader knows it is not a plain crash (a hang, a profile, an OS kill); nil
    /// when the reader does not say.
    public var category: ReportCategory?
    /// The main-thread hang the report is about (a hang report, or the hang a watchdog kill ended).
    public var hang: Hang?
    /// The sampling profile a profile report holds.
    public var profile: Profile?
    /// The OS's exit reason code a crash reporter recorded (KSCrash's `exit_reason.code`: 0x8badf00d …).
    ///
    /// Apart from ``termination``: the reporter gives no namespace, which Apple's text layout cannot go without.
    public var exitReasonCode: HexValue?
    /// Why the OS ended the process, as a crash reporter names it (KSCrash's `termination_reason`: `memory_limit` …).
    public var terminationReason: String?
    /// The report the crash handler wrote when it crashed while writing this one.
    ///
    /// KSCrash's Apple-format text appends it after `Handler crashed while reporting:`. It holds what that part
    /// says (its exception, crashed thread, frames, registers, diagnosis), not the header or binary images it
    /// shares with this report.
    @NestedCrashReport public var recrashReport: CrashReport?

    /// A report from its parts, for a family or a test that builds one.
    package init(
        sourceFormat: SourceFormat,
        header: IPSHeader? = nil,
        incidentID: String? = nil,
        crashReporterKey: String? = nil,
        betaIdentifier: String? = nil,
        hardwareModel: String? = nil,
        deviceName: String? = nil,
        process: String? = nil,
        pid: Int64? = nil,
        path: String? = nil,
        bundleId: String? = nil,
        appVersion: String? = nil,
        appBuild: String? = nil,
        codeType: String? = nil,
        isTranslated: Bool? = nil,
        role: String? = nil,
        parentProcess: String? = nil,
        parentPid: Int64? = nil,
        responsibleProcess: String? = nil,
        responsiblePid: Int64? = nil,
        coalition: String? = nil,
        coalitionId: Int64? = nil,
        date: AppleTimestamp? = nil,
        launchTime: AppleTimestamp? = nil,
        osVersion: String? = nil,
        osName: String? = nil,
        osVersionNumber: String? = nil,
        osBuild: String? = nil,
        releaseType: String? = nil,
        platform: OSVersion.Platform = .unknown,
        reportVersion: String? = nil,
        exception: Exception? = nil,
        termination: Termination? = nil,
        crashedThread: Int? = nil,
        applicationSpecificInformation: [String]? = nil,
        lastExceptionBacktrace: [Frame]? = nil,
        threads: [Thread] = [],
        binaryImages: [BinaryImage] = [],
        blocks: [Block] = [],
        signature: String? = nil,
        signatureFrames: [String]? = nil,
        isNotACrash: Bool = false,
        isPartial: Bool = false,
        unknownKeys: JSONValue? = nil,
        category: ReportCategory? = nil,
        hang: Hang? = nil,
        profile: Profile? = nil,
        exitReasonCode: HexValue? = nil,
        terminationReason: String? = nil,
        recrashReport: CrashReport? = nil
    ) {
        self.sourceFormat = sourceFormat
        self.header = header
        self.incidentID = incidentID
        self.crashReporterKey = crashReporterKey
        self.betaIdentifier = betaIdentifier
        self.hardwareModel = hardwareModel
        self.deviceName = deviceName
        self.process = process
        self.pid = pid
        self.path = path
        self.bundleId = bundleId
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.codeType = codeType
        self.isTranslated = isTranslated
        self.role = role
        self.parentProcess = parentProcess
        self.parentPid = parentPid
        self.responsibleProcess = responsibleProcess
        self.responsiblePid = responsiblePid
        self.coalition = coalition
        self.coalitionId = coalitionId
        self.date = date
        self.launchTime = launchTime
        self.osVersion = osVersion
        self.osName = osName
        self.osVersionNumber = osVersionNumber
        self.osBuild = osBuild
        self.releaseType = releaseType
        self.platform = platform
        self.reportVersion = reportVersion
        self.exception = exception
        self.termination = termination
        self.crashedThread = crashedThread
        self.applicationSpecificInformation = applicationSpecificInformation
        self.lastExceptionBacktrace = lastExceptionBacktrace
        self.threads = threads
        self.binaryImages = binaryImages
        self.blocks = blocks
        self.signature = signature
        self.signatureFrames = signatureFrames
        self.isNotACrash = isNotACrash
        self.isPartial = isPartial
        self.unknownKeys = unknownKeys
        self.category = category
        self.hang = hang
        self.profile = profile
        self.exitReasonCode = exitReasonCode
        self.terminationReason = terminationReason
        self.recrashReport = recrashReport
    }
}

extension CrashReport {
    /// Keeps a JSON body's unknown members as byte ranges of `shared`, read when ``unknownKeys`` is (in this file:
    /// the wrapper's storage is private to it).
    mutating func keepUnknownMembers(_ members: [LazyUnknownKeys.Member], of shared: SharedText) {
        _unknownKeys = LazyUnknownKeys(members: members, of: shared)
    }

    /// `unknownKeys` as kept, for the direct writer (``LazyUnknownKeys/write(_:into:)``).
    var keptUnknownKeys: LazyUnknownKeys { _unknownKeys }
}
