import APMInspectCore

/// What a watchdog (or other OS) termination says: which code, which event, how long the process was allowed,
/// how much CPU it used, and what its main thread was doing.
///
/// Read from every era's shape: the pre-iOS 10 `00000020` exception with the code in `Exception Codes`, the iOS
/// 10–14 `Termination Reason`/`Termination Description`, the iOS 15+ JSON `termination.reasons` (and their
/// translated text), watchOS CAROUSEL lines and macOS WATCHDOG details. Values the report does not give are nil.
public struct WatchdogTermination: Sendable, Equatable, Codable {
    /// What kind of kill this is.
    package enum Kind: String, Sendable, Equatable, Codable {
        /// The process took too long to launch, resume, suspend or answer a system event (0x8badf00d).
        case watchdogTimeout
        /// The device was too hot (0xc00010ff).
        case thermal
        /// A file or SQLite lock was held while the app was suspended (0xdead10cc).
        case fileLockHeldInBackground
        /// A VoIP push was not reported to CallKit (0xbaadca11), or a VoIP app resumed too often (0xbad22222).
        case voip
        /// Background work (task, URLSession, fetch) did not finish in time (0x2182bad2/3/4) or used too much CPU
        /// or time on watchOS (0xc51bad01/2/3).
        case backgroundTask
        /// The user force-quit the app (0xdeadfa11).
        case forceQuit
        /// The app drew on the lock screen in secure mode (0x2bad45ec).
        case insecureDrawing
        /// Killed to free disk space (0xbaddd15c) or for excessive use of system resources (0xd00d2bad).
        case resourcePressure
        /// A user-triggered stackshot (0xbaaaaaad): not a crash.
        case stackshot
        /// The simulator host asked for termination (0xfbfbfbfb).
        case simulatorTermination
        /// A termination the table does not name.
        case other
    }

    package var kind: Kind
    package var code: HexValue?
    /// The code's name (`ate bad food` for 0x8badf00d) when known.
    package var codeName: String?
    /// What the code means, in plain words.
    package var meaning: String?
    /// The namespace, such as `SPRINGBOARD`, `FRONTBOARD`, `ASSERTIOND`, `RUNNINGBOARD`, `CAROUSEL` or `WATCHDOG`.
    package var namespace: String?
    /// The numeric namespace (`domain:10`) from the RBSTerminateContext, with its xnu name.
    package var domain: Int?
    package var domainName: String?
    /// The watchdog event: `scene-create`, `scene-update`, `process-launch`, `process-exit`, or another (kept).
    package var event: String?
    package var processVisibility: String?
    package var processState: String?
    package var watchdogVisibility: String?
    /// The wall-clock (or CPU) time the process was allowed, in seconds.
    package var allowanceSeconds: Double?
    /// `real (wall clock)` or `CPU`.
    package var allowanceKind: String?
    /// Time actually taken, where the report gives it (`failed to scene-create after 19.81s`).
    package var elapsedSeconds: Double?
    package var cpu: CPUStatistics?
    package var thermal: Thermal?
    package var bundleId: String?
    package var pid: Int64?
    /// The UUID in `app<com.x(UUID)>` forms.
    package var bundleInstanceUUID: String?
    package var reportType: String?
    package var maxTerminationResistance: String?
    /// `termination.flags` bits by name (`GENERATE_CRASH_REPORT`, `FROM_USERSPACE` …).
    package var flags: [String]?
    /// What the main thread was doing, with the evidence.
    package var diagnosis: Diagnosis?
    /// The reason text the fields were read from.
    package var raw: String?

    /// A termination from its parts, for a test that builds one.
    package init(
        kind: Kind,
        code: HexValue? = nil,
        codeName: String? = nil,
        meaning: String? = nil,
        namespace: String? = nil,
        domain: Int? = nil,
        domainName: String? = nil,
        event: String? = nil,
        processVisibility: String? = nil,
        processState: String? = nil,
        watchdogVisibility: String? = nil,
        allowanceSeconds: Double? = nil,
        allowanceKind: String? = nil,
        elapsedSeconds: Double? = nil,
        cpu: CPUStatistics? = nil,
        thermal: Thermal? = nil,
        bundleId: String? = nil,
        pid: Int64? = nil,
        bundleInstanceUUID: String? = nil,
        reportType: String? = nil,
        maxTerminationResistance: String? = nil,
        flags: [String]? = nil,
        diagnosis: Diagnosis? = nil,
        raw: String? = nil
    ) {
        self.kind = kind
        self.code = code
        self.codeName = codeName
        self.meaning = meaning
        self.namespace = namespace
        self.domain = domain
        self.domainName = domainName
        self.event = event
        self.processVisibility = processVisibility
        self.processState = processState
        self.watchdogVisibility = watchdogVisibility
        self.allowanceSeconds = allowanceSeconds
        self.allowanceKind = allowanceKind
        self.elapsedSeconds = elapsedSeconds
        self.cpu = cpu
        self.thermal = thermal
        self.bundleId = bundleId
        self.pid = pid
        self.bundleInstanceUUID = bundleInstanceUUID
        self.reportType = reportType
        self.maxTerminationResistance = maxTerminationResistance
        self.flags = flags
        self.diagnosis = diagnosis
        self.raw = raw
    }
}
