/// A `bug_type` from an `.ips` header, with the report family it stands for.
///
/// The registry follows Apple's OSAnalytics log-type table. A `bug_type` only suggests a family: parsers still
/// check the content, since a 309 header can sit on a text body and 211 files can look like JetsamEvents.
public struct BugType: Sendable, Equatable, Hashable, Codable {
    /// What a report of this type is.
    public enum Family: String, Sendable, Equatable, Hashable, Codable {
        case jetsam
        case crash
        case excResource
        case panic
        case stackshot
        case analytics
        case systemWatchdog
        case hang
        case fault
        case watchdogTimeout
        /// A system memory reset (301) or reset count: the whole device, not one process.
        case memoryReset
        /// App launch diagnostics (238).
        case launch
        /// Symptoms framework reports: excessive I/O (145) and CPU use (202, 206).
        case symptoms
        /// Periodic CPU, I/O and power microstackshots.
        case microstackshot
        /// GPU restarts and events.
        case gpu
        case other
    }

    public var code: String
    public var name: String
    public var family: Family

    public init(code: String, name: String, family: Family) {
        self.code = code
        self.name = name
        self.family = family
    }

    /// The registry entry for `code`, or an `other` entry naming the unknown code.
    public static func lookup(_ code: String) -> BugType {
        let trimmed = code.trimmingASCIIWhitespace()
        if let entry = registry[trimmed] { return entry }
        return BugType(code: trimmed, name: "Unknown", family: .other)
    }

    /// True when the code is in the registry.
    public static func isKnown(_ code: String) -> Bool { registry[code.trimmingASCIIWhitespace()] != nil }

    /// True when the body of a report of this type is shaped like a crash report (a `.crash`-style text body or
    /// the 309 JSON body: exception, threads, binary images), so the crash reader can read it: OS faults, system
    /// watchdog crashes, terminating stackshots and run-loop hangs, besides crashes and resource reports.
    public var hasCrashShapedBody: Bool {
        switch family {
        case .crash, .excResource, .fault, .systemWatchdog: true
        default: Self.crashShapedCodes.contains(code)
        }
    }

    /// The stackshot and hang types whose body can be a crash-shaped report: the terminating stackshot and the
    /// run-loop and third-party hangs (the legacy macOS `.hang` is spindump text).
    private static let crashShapedCodes: Set<String> = ["509", "222", "223", "228", "310"]

    /// The `bug_type`s of Apple's OSAnalytics log-type table, by code.
    ///
    /// Every type a user may meet in a report folder or a sysdiagnose; names are the table's own.
    private static let registry: [String: BugType] = {
        let entries: [(String, String, Family)] = [
            ("9", "Crash", .crash),
            ("109", "Crash", .crash),
            ("309", "Crash", .crash),
            ("22", "ExcResource", .excResource),
            ("185", "ExcResource", .excResource),
            ("385", "ExcResource", .excResource),
            ("227", "ExcResourceThreads", .excResource),
            ("327", "ExcResourceThreads", .excResource),
            ("30", "MemoryResource", .other),
            ("188", "LegacyStackshot", .stackshot),
            ("288", "Stackshot", .stackshot),
            ("509", "TerminatingStackshot", .stackshot),
            ("98", "Jetsam", .jetsam),
            ("198", "LegacyJetsam", .jetsam),
            ("298", "Jetsam", .jetsam),
            ("10", "Panic", .panic),
            ("110", "Panic", .panic),
            ("210", "Panic", .panic),
            ("410", "AutomationPanic", .panic),
            ("151", "ForceReset", .panic),
            ("301", "SystemMemoryReset", .memoryReset),
            ("115", "ResetCount", .memoryReset),
            ("211", "CoreAnalytics", .analytics),
            ("33", "CoreAnalytics", .analytics),
            ("409", "SystemWatchdogCrash", .systemWatchdog),
            ("308", "OSFault", .fault),
            ("12", "Hang", .hang),
            ("222", "LongRunloopHang", .hang),
            ("223", "ShortRunloopHang", .hang),
            ("228", "ThirdPartyHang", .hang),
            ("310", "MicroRunloopHang", .hang),
            ("243", "CompositorClientHang", .hang),
            ("242", "ProactiveDeadlockDetection", .hang),
            ("11", "Spin", .watchdogTimeout),
            ("28", "WatchdogTimeout", .watchdogTimeout),
            ("29", "ServiceWatchdogTimeout", .watchdogTimeout),
            ("238", "AppLaunchDiagnostics", .launch),
            ("248", "HotSpotAppLaunchLog", .launch),
            ("145", "SymptomsIO", .symptoms),
            ("142", "SymptomsCPUWakes", .symptoms),
            ("202", "SymptomsCPUUsage", .symptoms),
            ("206", "SymptomsCPUUsageFatal", .symptoms),
            ("144", "HotSpotIOMicroSS", .microstackshot),
            ("157", "CPUMicroSS", .microstackshot),
            ("174", "MicroStackshot", .microstackshot),
            ("220", "PowerMicroStackshots", .microstackshot),
            ("23", "MicroStackShots", .microstackshot),
            ("44", "IOMicroStackShot", .microstackshot),
            ("239", "HangWorkflowResponsiveness", .microstackshot),
            ("184", "GPURestart", .gpu),
            ("21", "GPURestart", .gpu),
            ("284", "GPUEvent", .gpu),
            ("230", "PowerLog", .other),
            ("152", "MemorySnapshot", .other),
            ("154", "MemoryGraph", .other),
            ("187", "Sandbox", .other),
            ("204", "AutoBugCapture", .other),
            ("34", "AutoBugCapture", .other),
            ("17", "ShutdownStall", .other),
            ("24", "SleepWakeFailure", .other),
            ("213", "Rosetta", .other),
        ]
        var table: [String: BugType] = [:]
        for (code, name, family) in entries { table[code] = BugType(code: code, name: name, family: family) }
        return table
    }()
}
