import APMInspectCore
import CrashReportParsing
import JetsamParsing

/// What the fleet report keeps of one report: a few short facts, never the report itself.
///
/// Built from a parsed report or from the envelope `scan --format ndjson` wrote for it, by the same functions, so
/// that a folder and the NDJSON of an earlier scan of it give the same report.
public struct FleetEvent: Sendable, Equatable {
    /// The app, OS and device a report speaks of, and when it was written.
    package struct Context: Sendable, Equatable {
        package var bundleId: String?
        package var process: String?
        package var appVersion: String?
        package var appBuild: String?
        package var osVersion: String?
        package var device: String?
        package var date: AppleTimestamp?
        /// The LC_UUID of the app's main binary (32 lower-case hex digits), when the report lists its images: what
        /// links a JetsamEvent's kill, which names no version, to the version that was killed.
        package var binaryUUID: String?

        package init(
            bundleId: String? = nil,
            process: String? = nil,
            appVersion: String? = nil,
            appBuild: String? = nil,
            osVersion: String? = nil,
            device: String? = nil,
            date: AppleTimestamp? = nil,
            binaryUUID: String? = nil
        ) {
            self.bundleId = bundleId
            self.process = process
            self.appVersion = appVersion
            self.appBuild = appBuild
            self.osVersion = osVersion
            self.device = device
            self.date = date
            self.binaryUUID = binaryUUID
        }
    }

    /// One crash: a crash report, a KSCrash report, or a MetricKit crash diagnostic.
    package struct Crash: Sendable, Equatable {
        package var signature: String
        /// The kind of file it came from: `crashReport`, `kscrash`, `metrickit`.
        package var source: String
        package var exception: String
        package var topFrame: String?
        package var context: Context
        /// The group a rule of `report --grouping` gave the crash; nil keeps the group of its signature.
        package var grouping: GroupingMatch?
        /// What links this crash to the same crash from another reporter (see `CrashLedger`).
        package var link = CrashLink()

        /// A crash event from its grouping signature and context.
        package init(signature: String, source: String, exception: String, topFrame: String?, context: Context) {
            self.signature = signature
            self.source = source
            self.exception = exception
            self.topFrame = topFrame
            self.context = context
        }
    }

    /// A watchdog or OS termination.
    package struct Watchdog: Sendable, Equatable {
        /// The termination kind and code as people name it: `watchdogTimeout 0x8badf00d`.
        package var reason: String
        /// The main-thread verdict (`synchronousNetworking`), or nil when the report had no main thread to judge.
        package var verdict: String?
        package var context: Context
        /// What the kill counts as: a watchdog termination, or a resource kill (CPU) a crash reporter recorded.
        package var category: ReportCategory

        package init(
            reason: String,
            verdict: String?,
            context: Context,
            category: ReportCategory = .watchdogTermination
        ) {
            self.reason = reason
            self.verdict = verdict
            self.context = context
            self.category = category
        }
    }

    /// A report that is neither a crash nor a watchdog kill: a hang, a profile, or an OOM or resource kill a crash
    /// reporter wrote (KSCrash).
    package struct Occurrence: Sendable, Equatable {
        package var category: ReportCategory
        /// A hang's length in seconds, when the report measured it.
        package var hangSeconds: Double?
        /// For a hang: whether the app came back from it.
        package var recovered: Bool?
        package var context: Context
        /// Apple's incident identifier, normalised (``FleetEvent/normalizedIncident(_:)``): one hang delivered as an
        /// `.ips` 228 and as the `.hang` file beside it is counted once.
        package var incidentId: String?

        package init(
            category: ReportCategory,
            hangSeconds: Double? = nil,
            recovered: Bool? = nil,
            context: Context,
            incidentId: String? = nil
        ) {
            self.category = category
            self.hangSeconds = hangSeconds
            self.recovered = recovered
            self.context = context
            self.incidentId = incidentId
        }
    }

    /// A JetsamEvent: the kills it records and the memory limits they reveal.
    package struct OOM: Sendable, Equatable {
        package var evidence: MemoryLimitEvidence
        package var deviceName: String?
        package var killed: Int
        /// Names of the killed processes, at most `FleetEvent/maxKilledNames` (for `--app`).
        package var killedNames: [String]
        /// Names of the processes on screen (`frontmost`), at most `FleetEvent/maxKilledNames` (for `--app`).
        package var frontmostNames: [String]
        /// True when every killed process is a daemon or system process: memory pressure on the device rather
        /// than the app's OOM (false when an app or extension was killed, or nothing is marked killed).
        package var killedDaemonsOnly: Bool
        package var date: AppleTimestamp?
        /// The killed processes that are not daemons, at most `FleetEvent/maxKilledNames`: what the OOM table links
        /// to app versions by UUID or name.
        package var killedApps: [KilledProcess]

        package init(
            evidence: MemoryLimitEvidence,
            deviceName: String?,
            killed: Int,
            killedNames: [String],
            date: AppleTimestamp?,
            frontmostNames: [String] = [],
            killedDaemonsOnly: Bool = false,
            killedApps: [KilledProcess] = []
        ) {
            self.evidence = evidence
            self.deviceName = deviceName
            self.killed = killed
            self.killedNames = killedNames
            self.frontmostNames = frontmostNames
            self.killedDaemonsOnly = killedDaemonsOnly
            self.date = date
            self.killedApps = killedApps
        }
    }

    /// What one MetricKit file says for one app version on one device type.
    package struct MetricKitFigures: Sendable, Equatable {
        /// One bucket of a launch-time histogram, its bounds in seconds.
        package struct LaunchBucket: Sendable, Equatable, Hashable {
            package var start: Double
            package var end: Double
            package var count: Int64

            package init(start: Double, end: Double, count: Int64) {
                self.start = start
                self.end = end
                self.count = count
            }
        }

        package var version: String
        package var bundleId: String?
        /// `deviceType` of the metadata (`iPhone15,3`), nil when the payload has none.
        package var device: String?
        /// Metric payloads these figures come from (0 for figures from diagnostics alone).
        package var metricPayloads = 0
        /// `histogrammedTimeToFirstDraw` buckets whose bounds are times (merged when equal).
        package var launchBuckets: [LaunchBucket] = []
        /// Launches in buckets past `maxLaunchBuckets`: counted, not in the estimates.
        package var launchSamplesLeftOut: Int64 = 0
        /// Exit counts by reason (`background.memoryPressure`).
        package var exits: [String: Int64]
        /// Diagnostics by kind (`crash`, `hang` …).
        package var diagnostics: [String: Int]
        package var hangSeconds: Double
        package var foregroundSeconds: Double
        package var date: AppleTimestamp?
        /// The UUID of the app's executable (32 lower-case hex digits), what ties a JetsamEvent's kill to this
        /// version.
        ///
        /// Taken from a diagnostic's call tree: the binary that dyld's `start` called.
        package var binaryUUID: String?

        package init(
            version: String,
            bundleId: String?,
            exits: [String: Int64] = [:],
            diagnostics: [String: Int] = [:],
            hangSeconds: Double = 0,
            foregroundSeconds: Double = 0,
            date: AppleTimestamp?
        ) {
            self.version = version
            self.bundleId = bundleId
            self.exits = exits
            self.diagnostics = diagnostics
            self.hangSeconds = hangSeconds
            self.foregroundSeconds = foregroundSeconds
            self.date = date
        }
    }

    /// Killed process names kept per JetsamEvent: enough for `--app`, bounded for a report that lists thousands.
    package static let maxKilledNames = 64
    /// Crashes kept from one MetricKit file: a hostile file can hold millions of diagnostics.
    package static let maxCrashesPerFile = 10_000

    /// The path as given (`ARCHIVE!/member` inside archives).
    package var file: String
    /// The `FileKind` raw value.
    package var kind: String
    /// True when the file could not be read or parsed.
    package var unreadable: Bool
    /// Why it could not be read (the error's message), when known.
    package var failure: String?
    package var crashes: [Crash]
    package var watchdog: Watchdog?
    package var oom: OOM?
    package var metricKit: [MetricKitFigures]
    /// A hang, profile or crash reporter's OOM or resource kill (never with a crash or a watchdog).
    package var occurrence: Occurrence?
    /// A resource report (142, 145, 202, 206) or an EXC_RESOURCE crash report: what the resource-kill groups count
    /// (beside the occurrence or crash the same report gives).
    package var resource: Resource?
    /// The hangs the report records (a MetricKit file or an App Store Connect response can hold many), what the
    /// hang groups and the flame graph count.
    package var hangs: [Hang] = []

    package init(
        file: String,
        kind: String,
        unreadable: Bool = false,
        crashes: [Crash] = [],
        watchdog: Watchdog? = nil,
        oom: OOM? = nil,
        metricKit: [MetricKitFigures] = [],
        occurrence: Occurrence? = nil,
        failure: String? = nil,
        resource: Resource? = nil
    ) {
        self.file = file
        self.kind = kind
        self.unreadable = unreadable
        self.failure = failure
        self.crashes = crashes
        self.watchdog = watchdog
        self.oom = oom
        self.metricKit = metricKit
        self.occurrence = occurrence
        self.resource = resource
    }
}
