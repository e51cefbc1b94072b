import APMInspectCore

/// One event for a backend, whatever report it came from: the facts the Sentry and OpenTelemetry writers share.
///
/// Built from a crash report, a watchdog termination, a MetricKit diagnostic, an OOM kill, a resource report or
/// a system watchdog (see the
/// `BackendIncident+…` extractions); the writers map it field by field (docs/backends.md).
public struct BackendIncident: Sendable, Equatable {
    /// What happened, which decides the Sentry mechanism and level and the OpenTelemetry event name.
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        case crash
        case watchdog
        case outOfMemory
        case metricKitCrash
        case metricKitHang
        case metricKitCPUException
        case metricKitDiskWriteException
        /// A main-thread hang a crash reporter recorded (KSCrash's `hang` reports): not fatal.
        case hang
        /// The OS killed a process for going over a resource budget (bug_type 206): fatal, but not a crash.
        case resourceKill
        /// A process went over a resource budget and was left running (bug_type 145, 202): warning level.
        case resourceWarning
        /// A userspace watchdog took the device or a service down (bug_type 409): a system event, error level.
        case systemWatchdog
        /// Jetsam killed only daemons or system processes: memory pressure on the device, not the app's OOM, so it
        /// is a warning-level system event and never `app.crash`.
        case systemMemoryKill

        /// The value of the `kind` tag and `apm_inspect.kind` attribute.
        package var tag: String {
            switch self {
            case .crash: "crash"
            case .watchdog: "watchdog"
            case .outOfMemory: "oom"
            case .metricKitCrash: "metrickit_crash"
            case .metricKitHang: "metrickit_hang"
            case .metricKitCPUException: "metrickit_cpu_exception"
            case .metricKitDiskWriteException: "metrickit_disk_write_exception"
            case .hang: "hang"
            case .resourceKill: "resource_kill"
            case .resourceWarning: "resource_warning"
            case .systemWatchdog: "system_watchdog"
            case .systemMemoryKill: "system_oom"
            }
        }
    }

    /// The POSIX signal, as Sentry's `mechanism.meta.signal` has it.
    package struct Signal: Sendable, Equatable {
        package var number: Int64?
        package var name: String?
        package var code: Int64?
        package var codeName: String?
    }

    /// The Mach exception, as Sentry's `mechanism.meta.mach_exception` has it.
    package struct MachException: Sendable, Equatable {
        package var exception: Int64?
        package var name: String?
        package var code: UInt64?
        package var subcode: UInt64?
    }

    /// A frame, oldest-first order is the writers' business: frames here are in Apple's order (innermost first).
    package struct Frame: Sendable, Equatable {
        package var instructionAddress: UInt64?
        package var imageAddress: UInt64?
        package var symbolAddress: UInt64?
        /// The image's path (or name when the path is unknown).
        package var package: String?
        package var imageName: String?
        package var function: String?
        package var fileName: String?
        package var line: Int?
        package var inApp: Bool?
        /// Offset into the image, kept for the text stack trace when the address is unknown (MetricKit).
        package var imageOffset: UInt64?
        /// The image's UUID (32 lower-case hex digits), for MetricKit call stacks.
        package var imageUUID: String?
    }

    /// A register of the crashed thread's state, as the report wrote it.
    package struct Register: Sendable, Equatable {
        package var name: String
        package var value: UInt64
    }

    /// A thread of the incident and its frames.
    package struct Thread: Sendable, Equatable {
        package var id: Int
        package var name: String?
        package var crashed: Bool
        package var isMain: Bool
        package var frames: [Frame]
        /// The crashed thread's registers (empty for the others): Sentry shows them beside its stack trace.
        package var registers: [Register] = []
    }

    /// A binary image loaded in the process.
    package struct Image: Sendable, Equatable {
        /// 32 lower-case hex digits.
        package var uuid: String
        package var address: UInt64
        package var size: UInt64?
        package var codeFile: String
        package var arch: String?
        /// The `__TEXT` segment's preferred load address, from a dSYM or binary; nil when none was given (a report
        /// does not write it).
        package var vmAddress: UInt64?
    }

    package var kind: Kind
    /// The exception's type (`EXC_BAD_ACCESS`, `NSRangeException`, `WatchdogTermination` …).
    package var exceptionType: String
    package var exceptionValue: String?
    package var mechanismType: String
    package var signal: Signal?
    package var machException: MachException?
    /// The address the crash was about (the faulting address of a bad access).
    package var relevantAddress: UInt64?
    /// Index into ``threads`` of the thread the exception is attributed to.
    package var exceptionThread: Int?
    /// The frames of the exception itself when they differ from the crashed thread (an NSException's last
    /// backtrace); nil to use the crashed thread's.
    package var exceptionFrames: [Frame]?
    package var threads: [Thread]
    package var images: [Image]
    package var isFatal: Bool

    package var hardwareModel: String?
    package var deviceArch: String?
    package var memorySize: UInt64?
    package var osName: String?
    package var osVersion: String?
    package var osBuild: String?
    package var osRawDescription: String?
    package var process: String?
    package var bundleId: String?
    package var appVersion: String?
    package var appBuild: String?
    /// The main executable's UUID, dashed: OpenTelemetry's `app.build_id`.
    package var appBuildID: String?
    package var timestamp: AppleTimestamp?

    package var signature: String?
    /// How a backend groups the event: function names and fixed words, never offsets, so that builds of the same
    /// code group together; nil to leave grouping to the backend (Sentry groups by the stack trace it symbolicates).
    package var fingerprint: [String]?
    package var incidentID: String?
    package var bugType: String?
    /// Figures under the OpenTelemetry Swift MetricKit instrumentation's names.
    package var metricKitAttributes: [(key: String, value: AttributeValue)]
    /// Text kept for people: termination reasons, the watchdog's verdict, the jetsam reason.
    package var extra: [(key: String, value: String)]

    /// Equal when they say the same thing: equality by content, never by storage.
    public static func == (lhs: BackendIncident, rhs: BackendIncident) -> Bool {
        lhs.kind == rhs.kind && lhs.exceptionType == rhs.exceptionType && lhs.exceptionValue == rhs.exceptionValue
            && lhs.mechanismType == rhs.mechanismType && lhs.signal == rhs.signal
            && lhs.machException == rhs.machException && lhs.relevantAddress == rhs.relevantAddress
            && lhs.exceptionThread == rhs.exceptionThread
            && lhs.exceptionFrames == rhs.exceptionFrames && lhs.threads == rhs.threads && lhs.images == rhs.images
            && lhs.isFatal == rhs.isFatal && lhs.hardwareModel == rhs.hardwareModel
            && lhs.deviceArch == rhs.deviceArch && lhs.memorySize == rhs.memorySize && lhs.osName == rhs.osName
            && lhs.osVersion == rhs.osVersion && lhs.osBuild == rhs.osBuild
            && lhs.osRawDescription == rhs.osRawDescription && lhs.process == rhs.process
            && lhs.bundleId == rhs.bundleId && lhs.appVersion == rhs.appVersion && lhs.appBuild == rhs.appBuild
            && lhs.appBuildID == rhs.appBuildID && lhs.timestamp == rhs.timestamp && lhs.signature == rhs.signature
            && lhs.fingerprint == rhs.fingerprint
            && lhs.incidentID == rhs.incidentID && lhs.bugType == rhs.bugType
            && lhs.metricKitAttributes.map(\.key) == rhs.metricKitAttributes.map(\.key)
            && lhs.metricKitAttributes.map(\.value) == rhs.metricKitAttributes.map(\.value)
            && lhs.extra.map(\.key) == rhs.extra.map(\.key) && lhs.extra.map(\.value) == rhs.extra.map(\.value)
    }

    init(kind: Kind, exceptionType: String, mechanismType: String) {
        self.kind = kind
        self.exceptionType = exceptionType
        self.mechanismType = mechanismType
        threads = []
        images = []
        isFatal = true
        metricKitAttributes = []
        extra = []
    }

    /// The `release` of the app: `bundleId@version+build`, nil without a bundle id and a version.
    package var release: String? {
        guard let bundleId, !bundleId.isEmpty, let appVersion, !appVersion.isEmpty else { return nil }
        guard let appBuild, !appBuild.isEmpty else { return "\(bundleId)@\(appVersion)" }
        return "\(bundleId)@\(appVersion)+\(appBuild)"
    }

    /// The frames of the exception: its own, or the attributed thread's.
    package var framesOfException: [Frame] {
        if let exceptionFrames { return exceptionFrames }
        guard let exceptionThread, let thread = threads.first(where: { $0.id == exceptionThread }) else { return [] }
        return thread.frames
    }
}

/// An attribute value as OpenTelemetry types them.
package enum AttributeValue: Sendable, Equatable {
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
}
