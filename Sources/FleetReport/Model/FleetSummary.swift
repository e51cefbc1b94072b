import JetsamParsing

/// The fleet report: what `report --format json` prints, and what every other format renders.
///
/// Every list is in a fixed order (most reports first, then by name), so the same reports give the same bytes
/// whatever order they were read in.
public struct FleetSummary: Sendable, Equatable, Encodable {
    /// What the aggregation read and what it could not.
    public struct Inputs: Sendable, Equatable, Encodable {
        /// Reports read: files, archive members and NDJSON envelopes.
        public var reports = 0
        /// Reports by kind (`crashReport`, `jetsamEvent` …).
        public var kinds: [String: Int] = [:]
        public var unreadable = 0
        /// Envelopes read from NDJSON files (counted in `reports` too).
        public var ndjsonEnvelopes = 0
        /// NDJSON lines that were not envelopes (see the diagnostics).
        public var rejectedLines = 0
        /// Crashes, terminations, OOM kills and MetricKit figures left out by the filters.
        public var excluded = 0
        /// Reports that added nothing to the report.
        ///
        /// Unreadable ones, and those of a kind it does not aggregate (HTTP captures, PowerLog databases, panics …).
        /// Reports left out by the filters are in ``excluded`` instead.
        public var skippedFiles = 0
        /// The first ``FleetLimits/maxFindings`` of them by path bytes (then kind and reason), in that order, each
        /// with the reason: the same list whatever order the reports were read in.
        public var skipped: [SkippedFile] = []
    }

    /// A report that added nothing to the fleet report, and why.
    public struct SkippedFile: Sendable, Equatable, Encodable {
        /// The path as given (`ARCHIVE!/member` inside archives).
        public var file: String
        /// The `FileKind` raw value (`httpArchive`, `unknown` …).
        public var kind: String
        /// Why: the error that kept it from being read, or that its kind is not aggregated.
        public var reason: String

        package init(file: String, kind: String, reason: String) {
            self.file = file
            self.kind = kind
            self.reason = reason
        }
    }

    /// The filters the aggregation applied, echoed so a summary says what it covers.
    public struct Filters: Sendable, Equatable, Encodable {
        public var since: String?
        /// The `--app` values joined by `, ` (each of them in ``apps``).
        public var app: String?
        public var apps: [String]?
        public var version: String?
        /// Added: the `--grouping` rules file, as given.
        public var grouping: String?

        package init(since: String? = nil, app: String? = nil, version: String? = nil, apps: [String]? = nil) {
            self.since = since
            self.app = app
            self.version = version
            self.apps = apps ?? app.map { [$0] }
        }
    }

    /// Values seen in a group, the most frequent first, capped; `others` counts the reports outside the list and
    /// `othersValues` the distinct values outside it.
    public struct Values: Sendable, Equatable, Encodable {
        public var values: [CappedCounts.Entry]
        /// Reports whose value is not listed.
        public var others: Int
        /// Distinct values not listed (what a view's "+N more" counts, with the listed values it does not show).
        public var othersValues: Int

        package init(values: [CappedCounts.Entry], others: Int, othersValues: Int = 0) {
            self.values = values
            self.others = others
            self.othersValues = othersValues
        }
    }

    /// The crashes that share one signature.
    public struct CrashGroup: Sendable, Equatable, Encodable {
        public var signature: String
        public var count: Int
        /// Of every crash in the report, 0 to 1.
        public var share: Double
        public var firstSeen: String?
        public var lastSeen: String?
        /// Crashes without a date.
        public var undated: Int
        public var process: String
        public var exception: String
        public var topFrame: String?
        /// The newest report of the group (the first path by bytes among equally new ones).
        public var representativeFile: String
        public var appVersions: Values
        public var osVersions: Values
        public var devices: Values
        /// Reports by the kind of file they came from: `crashReport`, `kscrash`, `metrickit`.
        ///
        /// A crash several reporters sent counts in each of their sources, and once in ``count``.
        public var sources: [String: Int]
        /// True when, for each app the group's versioned crashes came from, the oldest version the group was seen
        /// in is that app's newest version in the report (versions are compared only within one app).
        public var newInNewestVersion: Bool
        /// The app of the representative report: its bundle id, else its process name, else `?`.
        public var app: String
        /// The newest version of ``app`` in the report (nil when no report of the app names a version).
        public var appNewestVersion: String?
        /// The newest app version the group was seen in (nil when none of its crashes names one).
        public var newestVersionSeen: String?
        /// The group's report files, the first ``FleetLimits/maxFilesPerGroup`` by bytes.
        public var files: [String]
        /// Files of the group that are not in ``files``.
        public var moreFiles: Int
        /// Added (`report --grouping`): the fingerprint of the rule that made the group, its values with variables
        /// filled; absent for a group made by signature.
        public var fingerprint: [String]? = nil
        /// Added: the rule's `title="…"`, variables filled, when it has one.
        public var title: String? = nil
        /// Added: the rule that made the group (line in the rules file, and text).
        public var groupingRule: GroupingMatch.Rule? = nil
        /// Added: reports of the group's crashes linked to another report of the same crash (another reporter's):
        /// in ``sources``, not in ``count``.
        public var duplicatesLinked = 0
        /// Added: the group's crashes that more than one reporter sent.
        public var linkedCrashes = 0
    }

    /// A number of events on one UTC day.
    public struct DayCount: Sendable, Equatable, Encodable {
        public var day: String
        public var count: Int

        package init(day: String, count: Int) {
            self.day = day
            self.count = count
        }
    }

    /// The events of one signature per day.
    public struct DaySeries: Sendable, Equatable, Encodable {
        public var signature: String
        public var days: [DayCount]
        /// Crashes on days older than the days listed.
        public var earlier: Int
    }

    /// The crash part of the summary: totals and groups.
    public struct Crashes: Sendable, Equatable, Encodable {
        public var total = 0
        public var signatures = 0
        /// Crashes whose signature arrived once the group limit was reached: counted here, not grouped.
        public var ungrouped = 0
        public var groups: [CrashGroup] = []
        /// The newest version: with one app, its newest; with several, the greatest of their newest versions.
        ///
        /// Kept for compatibility: compare within an app with ``newestVersionByApp``. Never empty or `???`: a
        /// report whose version is missing, empty or only question marks names no version.
        public var newestVersion: String?
        /// The signatures of the groups new in the newest version of their app (see ``CrashGroup/newInNewestVersion``).
        public var newInNewestVersion: [String] = []
        /// The newest version of each app (bundle id, else process name) seen in any report.
        public var newestVersionByApp: [String: String] = [:]
        /// Crashes per UTC day of the top groups (the chart).
        public var perDay: [DaySeries] = []
        /// Added: crash reports read, before the reports of one crash from several reporters were linked
        /// (``total`` plus ``duplicatesLinked``).
        public var reports = 0
        /// Added: reports linked to another reporter's report of the same crash, and so not counted in ``total``.
        public var duplicatesLinked = 0
        /// Added: crashes that more than one reporter sent.
        public var linkedCrashes = 0
    }

    /// The watchdog terminations for one reason.
    public struct WatchdogRow: Sendable, Equatable, Encodable {
        public var reason: String
        /// The main-thread verdict, `none` when the report had none.
        public var verdict: String
        public var count: Int
        public var example: String
    }

    /// The watchdog part of the summary.
    public struct Watchdog: Sendable, Equatable, Encodable {
        public var total = 0
        public var rows: [WatchdogRow] = []
        /// Terminations whose reason and verdict arrived once the row limit was reached.
        public var ungrouped = 0
    }

    /// The out-of-memory events of one device model.
    public struct DeviceRow: Sendable, Equatable, Encodable {
        public var device: String
        public var deviceName: String?
        /// JetsamEvents from the device.
        public var events: Int
        /// Processes they killed.
        public var killed: Int
    }

    /// The out-of-memory (JetsamEvent) part of the summary.
    public struct OOM: Sendable, Equatable, Encodable {
        public var events = 0
        public var killed = 0
        public var byDevice: [DeviceRow] = []
        public var ungrouped = 0
        /// The limits the kills reveal, per device and OS build (as `memory-limits` computes them).
        public var memoryLimits: [MemoryLimitRow] = []
        /// What MetricKit says of memory kills, per app version, beside the JetsamEvents (which name no version).
        public var metricKitByVersion: [MemoryKillsRow] = []
        /// OOMs the OS itself reported, with their sources.
        public var confirmed = ConfirmedOOMs()
        /// The OOM truth table: per app, version and device model, confirmed and inferred OOMs and the other
        /// terminations, each with its sources, beside the device's memory limit.
        public var byVersionAndDevice: [OOMTruthRow] = []
        /// Counts that arrived once the table's row or kill limit was reached: in no row.
        public var byVersionAndDeviceUngrouped = 0
        /// JetsamEvent kills of apps (not daemons) for causes other than their own limit, tied to no report of the
        /// app: the other apps a memory-starved device killed, left out of the table.
        public var unlinkedKills = 0
    }

    /// The MetricKit figures of one app version.
    public struct MetricKitRow: Sendable, Equatable, Encodable {
        public var version: String
        public var exits: [String: Int64]
        public var diagnostics: [String: Int]
        public var hangSeconds: Double
        public var foregroundSeconds: Double
        /// Seconds of hang per hour in the foreground; nil without foreground time.
        public var hangRate: Double?
        /// Time to first draw from the launch histograms; nil when no payload had one.
        public var launch: MetricKitFleetSummary.Launch?
    }

    /// Reports counted by what they record, each in one category: not every report is a crash.
    public struct Categories: Sendable, Equatable, Encodable {
        /// Crashes (as `crashes.total`).
        public var crashes = 0
        /// Hangs a crash reporter recorded (KSCrash `hang` reports), recovered or not.
        public var hangs = 0
        /// Watchdog and OS terminations (as the watchdog rows count them, less the resource kills).
        public var watchdogTerminations = 0
        /// Memory kills of an app: JetsamEvents that killed an app or extension and crash reporters' memory
        /// terminations (JetsamEvents that killed daemons alone are in ``systemMemoryKills``).
        public var outOfMemory = 0
        /// Kills for the use of another resource (CPU, disk writes).
        public var resourceKills = 0
        /// Sampling profiles: no failure at all.
        public var profiles = 0
        /// Resource reports of a process left running (bug_type 145, 202).
        public var resourceWarnings = 0
        /// System watchdog crashes (bug_type 409): the device's event, apart from the app's watchdog terminations.
        public var systemWatchdogs = 0
        /// JetsamEvents that killed daemons or system processes and no app: memory pressure, not the app's OOM.
        public var systemMemoryKills = 0
    }

    /// The hangs crash reporters recorded.
    public struct Hangs: Sendable, Equatable, Encodable {
        public var total = 0
        /// Hangs the app came back from (the rest ended in a kill or say nothing).
        public var recovered = 0
        /// Hangs whose length is known.
        public var measured = 0
        /// The sum and the longest of the measured lengths, in seconds.
        public var totalSeconds = 0.0
        public var longestSeconds: Double?
        /// MetricKit's hang rate per app and version (hang seconds per foreground hour), newest version first.
        public var rateByVersion: [HangRateRow] = []
        /// Metric payloads of (app, version) pairs past the row limit: in no rate.
        public var rateByVersionUngrouped = 0
        /// Hangs by kind of source, every kind listed (``FleetEvent/Source``): MetricKit hang diagnostics,
        /// KSCrash hang reports, Apple's hang reports, 0x8badf00d watchdog kills, App Store Connect hang logs.
        public var bySource: [String: Int] = Dictionary(
            uniqueKeysWithValues: FleetEvent.Source.allCases.map { ($0.rawValue, 0) }
        )
        /// Hangs grouped by the main thread's stack, most first.
        public var groups: [HangGroup] = []
        /// Hangs whose group arrived once the group limit was reached: counted, not grouped.
        public var groupsUngrouped = 0
        /// The main-thread stacks of every hang, root first: the flame graph (`report --format folded`).
        public var stacks: [HangStack] = []
        /// Hangs whose stack arrived once the stack limit was reached: in no stack.
        public var stacksUngrouped = 0
    }

    /// When the report was made, ISO 8601 in UTC (`2024-06-01T12:00:00Z`).
    ///
    /// Nil when the caller gave no clock. `report` takes it from `SOURCE_DATE_EPOCH` when set, so a build can
    /// reproduce a page byte for byte.
    public var generatedAt: String?
    public var inputs = Inputs()
    public var categories = Categories()
    public var hangs = Hangs()
    public var filters = Filters()
    public var crashes = Crashes()
    public var watchdog = Watchdog()
    public var oom = OOM()
    public var metricKit: [MetricKitRow] = []
    /// Resource reports (142, 145, 202, 206) and EXC_RESOURCE crash reports grouped by their heaviest stack.
    public var resourceKills = ResourceKills()
    /// The MetricKit fleet view `scan` prints: exits by reason, per version and per device type.
    public var metricKitFleet = MetricKitFleetSummary()
    /// Findings about the inputs (lines of NDJSON that were not envelopes), the first ones only.
    public var findings: [String] = []
    /// The same findings as data, each with its stable code (docs/diagnostics.md): `diagnostics` in the JSON.
    public var diagnostics: [FleetFinding] = []

    package init() {}
}
