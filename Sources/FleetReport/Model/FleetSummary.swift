import JetsamParsing

/// The fleet report: what `report --format json` prints, and what every other format renders.
///
/// Every list is in a fixed order (most reports first, then by name), so the same reports give the same bytes
/// whatever order they were read in.
public struct FleetSummary: Sendable, Equatable, Encodable {
    /// What the aggregation read and what it could not.
    package struct Inputs: Sendable, Equatable, Encodable {
        /// Reports read: files, archive members and NDJSON envelopes.
        package var reports = 0
        /// Reports by kind (`crashReport`, `jetsamEvent` …).
        package var kinds: [String: Int] = [:]
        package var unreadable = 0
        /// Envelopes read from NDJSON files (counted in `reports` too).
        package var ndjsonEnvelopes = 0
        /// NDJSON lines that were not envelopes (see the diagnostics).
        package var rejectedLines = 0
        /// Crashes, terminations, OOM kills and MetricKit figures left out by the filters.
        package var excluded = 0
        /// Reports that added nothing to the report.
        ///
        /// Unreadable ones, and those of a kind it does not aggregate (HTTP captures, PowerLog databases, panics …).
        /// Reports left out by the filters are in ``excluded`` instead.
        package var skippedFiles = 0
        /// The first ``FleetLimits/maxFindings`` of them by path bytes (then kind and reason), in that order, each
        /// with the reason: the same list whatever order the reports were read in.
        package var skipped: [SkippedFile] = []
    }

    /// A report that added nothing to the fleet report, and why.
    package struct SkippedFile: Sendable, Equatable, Encodable {
        /// The path as given (`ARCHIVE!/member` inside archives).
        package var file: String
        /// The `FileKind` raw value (`httpArchive`, `unknown` …).
        package var kind: String
        /// Why: the error that kept it from being read, or that its kind is not aggregated.
        package var reason: String

        package init(file: String, kind: String, reason: String) {
            self.file = file
            self.kind = kind
            self.reason = reason
        }
    }

    /// The filters the aggregation applied, echoed so a summary says what it covers.
    package struct Filters: Sendable, Equatable, Encodable {
        package var since: String?
        /// The `--app` values joined by `, ` (each of them in ``apps``).
        package var app: String?
        package var apps: [String]?
        package var version: String?
        /// Added: the `--grouping` rules file, as given.
        package var grouping: String?

        package init(since: String? = nil, app: String? = nil, version: String? = nil, apps: [String]? = nil) {
            self.since = since
            self.app = app
            self.version = version
            self.apps = apps ?? app.map { [$0] }
        }
    }

    /// Values seen in a group, the most frequent first, capped; `others` counts the reports outside the list and
    /// `othersValues` the distinct values outside it.
    package struct Values: Sendable, Equatable, Encodable {
        package var values: [CappedCounts.Entry]
        /// Reports whose value is not listed.
        package var others: Int
        /// Distinct values not listed (what a view's "+N more" counts, with the listed values it does not show).
        package var othersValues: Int

        package init(values: [CappedCounts.Entry], others: Int, othersValues: Int = 0) {
            self.values = values
            self.others = others
            self.othersValues = othersValues
        }
    }

    /// The crashes that share one signature.
    package struct CrashGroup: Sendable, Equatable, Encodable {
        package var signature: String
        package var count: Int
        /// Of every crash in the report, 0 to 1.
        package var share: Double
        package var firstSeen: String?
        package var lastSeen: String?
        /// Crashes without a date.
        package var undated: Int
        package var process: String
        package var exception: String
        package var topFrame: String?
        /// The newest report of the group (the first path by bytes among equally new ones).
        package var representativeFile: String
        package var appVersions: Values
        package var osVersions: Values
        package var devices: Values
        /// Reports by the kind of file they came from: `crashReport`, `kscrash`, `metrickit`.
        ///
        /// A crash several reporters sent counts in each of their sources, and once in ``count``.
        package var sources: [String: Int]
        /// True when, for each app the group's versioned crashes came from, the oldest version the group was seen
        /// in is that app's newest version in the report (versions are compared only within one app).
        package var newInNewestVersion: Bool
        /// The app of the representative report: its bundle id, else its process name, else `?`.
        package var app: String
        /// The newest version of ``app`` in the report (nil when no report of the app names a version).
        package var appNewestVersion: String?
        /// The newest app version the group was seen in (nil when none of its crashes names one).
        package var newestVersionSeen: String?
        /// The group's report files, the first ``FleetLimits/maxFilesPerGroup`` by bytes.
        package var files: [String]
        /// Files of the group that are not in ``files``.
        package var moreFiles: Int
        /// Added (`report --grouping`): the fingerprint of the rule that made the group, its values with variables
        /// filled; absent for a group made by signature.
        package var fingerprint: [String]? = nil
        /// Added: the rule's `title="…"`, variables filled, when it has one.
        package var title: String? = nil
        /// Added: the rule that made the group (line in the rules file, and text).
        package var groupingRule: GroupingMatch.Rule? = nil
        /// Added: reports of the group's crashes linked to another report of the same crash (another reporter's):
        /// in ``sources``, not in ``count``.
        package var duplicatesLinked = 0
        /// Added: the group's crashes that more than one reporter sent.
        package var linkedCrashes = 0
    }

    /// A number of events on one UTC day.
    package struct DayCount: Sendable, Equatable, Encodable {
        package var day: String
        package var count: Int

        package init(day: String, count: Int) {
            self.day = day
            self.count = count
        }
    }

    /// The events of one signature per day.
    package struct DaySeries: Sendable, Equatable, Encodable {
        package var signature: String
        package var days: [DayCount]
        /// Crashes on days older than the days listed.
        package var earlier: Int
    }

    /// The crash part of the summary: totals and groups.
    package struct Crashes: Sendable, Equatable, Encodable {
        package var total = 0
        package var signatures = 0
        /// Crashes whose signature arrived once the group limit was reached: counted here, not grouped.
        package var ungrouped = 0
        package var groups: [CrashGroup] = []
        /// The newest version: with one app, its newest; with several, the greatest of their newest versions.
        ///
        /// Kept for compatibility: compare within an app with ``newestVersionByApp``. Never empty or `???`: a
        /// report whose version is missing, empty or only question marks names no version.
        package var newestVersion: String?
        /// The signatures of the groups new in the newest version of their app (see ``CrashGroup/newInNewestVersion``).
        package var newInNewestVersion: [String] = []
        /// The newest version of each app (bundle id, else process name) seen in any report.
        package var newestVersionByApp: [String: String] = [:]
        /// Crashes per UTC day of the top groups (the chart).
        package var perDay: [DaySeries] = []
        /// Added: crash reports read, before the reports of one crash from several reporters were linked
        /// (``total`` plus ``duplicatesLinked``).
        package var reports = 0
        /// Added: reports linked to another reporter's report of the same crash, and so not counted in ``total``.
        package var duplicatesLinked = 0
        /// Added: crashes that more than one reporter sent.
        package var linkedCrashes = 0
    }

    /// The watchdog terminations for one reason.
    package struct WatchdogRow: Sendable, Equatable, Encodable {
        package var reason: String
        /// The main-thread verdict, `none` when the report had none.
        package var verdict: String
        package var count: Int
        package var example: String
    }

    /// The watchdog part of the summary.
    package struct Watchdog: Sendable, Equatable, Encodable {
        package var total = 0
        package var rows: [WatchdogRow] = []
        /// Terminations whose reason and verdict arrived once the row limit was reached.
        package var ungrouped = 0
    }

    /// The out-of-memory events of one device model.
    package struct DeviceRow: Sendable, Equatable, Encodable {
        package var device: String
        package var deviceName: String?
        /// JetsamEvents from the device.
        package var events: Int
        /// Processes they killed.
        package var killed: Int
    }

    /// The out-of-memory (JetsamEvent) part of the summary.
    package struct OOM: Sendable, Equatable, Encodable {
        package var events = 0
        package var killed = 0
        package var byDevice: [DeviceRow] = []
        package var ungrouped = 0
        /// The limits the kills reveal, per device and OS build (as `memory-limits` computes them).
        package var memoryLimits: [MemoryLimitRow] = []
        /// What MetricKit says of memory kills, per app version, beside the JetsamEvents (which name no version).
        package var metricKitByVersion: [MemoryKillsRow] = []
        /// OOMs the OS itself reported, with their sources.
        package var confirmed = ConfirmedOOMs()
        /// The OOM truth table: per app, version and device model, confirmed and inferred OOMs and the other
        /// terminations, each with its sources, beside the device's memory limit.
        package var byVersionAndDevice: [OOMTruthRow] = []
        /// Counts that arrived once the table's row or kill limit was reached: in no row.
        package var byVersionAndDeviceUngrouped = 0
        /// JetsamEvent kills of apps (not daemons) for causes other than their own limit, tied to no report of the
        /// app: the other apps a memory-starved device killed, left out of the table.
        package var unlinkedKills = 0
    }

    /// The MetricKit figures of one app version.
    package struct MetricKitRow: Sendable, Equatable, Encodable {
        package var version: String
        package var exits: [String: Int64]
        package var diagnostics: [String: Int]
        package var hangSeconds: Double
        package var foregroundSeconds: Double
        /// Seconds of hang per hour in the foreground; nil without foreground time.
        package var hangRate: Double?
        /// Time to first draw from the launch histograms; nil when no payload had one.
        package var launch: MetricKitFleetSummary.Launch?
    }

    /// Reports counted by what they record, each in one category: not every report is a crash.
    package struct Categories: Sendable, Equatable, Encodable {
        /// Crashes (as `crashes.total`).
        package var crashes = 0
        /// Hangs a crash reporter recorded (KSCrash `hang` reports), recovered or not.
        package var hangs = 0
        /// Watchdog and OS terminations (as the watchdog rows count them, less the resource kills).
        package var watchdogTerminations = 0
        /// Memory kills of an app: JetsamEvents that killed an app or extension and crash reporters' memory
        /// terminations (JetsamEvents that killed daemons alone are in ``systemMemoryKills``).
        package var outOfMemory = 0
        /// Kills for the use of another resource (CPU, disk writes).
        package var resourceKills = 0
        /// Sampling profiles: no failure at all.
        package var profiles = 0
        /// Resource reports of a process left running (bug_type 145, 202).
        package var resourceWarnings = 0
        /// System watchdog crashes (bug_type 409): the device's event, apart from the app's watchdog terminations.
        package var systemWatchdogs = 0
        /// JetsamEvents that killed daemons or system processes and no app: memory pressure, not the app's OOM.
        package var systemMemoryKills = 0
    }

    /// The hangs crash reporters recorded.
    package struct Hangs: Sendable, Equatable, Encodable {
        package var total = 0
        /// Hangs the app came back from (the rest ended in a kill or say nothing).
        package var recovered = 0
        /// Hangs whose length is known.
        package var measured = 0
        /// The sum and the longest of the measured lengths, in seconds.
        package var totalSeconds = 0.0
        package var longestSeconds: Double?
        /// MetricKit's hang rate per app and version (hang seconds per foreground hour), newest version first.
        package var rateByVersion: [HangRateRow] = []
        /// Metric payloads of (app, version) pairs past the row limit: in no rate.
        package var rateByVersionUngrouped = 0
        /// Hangs by kind of source, every kind listed (``FleetEvent/Source``): MetricKit hang diagnostics,
        /// KSCrash hang reports, Apple's hang reports, 0x8badf00d watchdog kills, App Store Connect hang logs.
        package var bySource: [String: Int] = Dictionary(
            uniqueKeysWithValues: FleetEvent.Source.allCases.map { ($0.rawValue, 0) }
        )
        /// Hangs grouped by the main thread's stack, most first.
        package var groups: [HangGroup] = []
        /// Hangs whose group arrived once the group limit was reached: counted, not grouped.
        package var groupsUngrouped = 0
        /// The main-thread stacks of every hang, root first: the flame graph (`report --format folded`).
        package var stacks: [HangStack] = []
        /// Hang reports of a hang already counted (Apple's `.ips` and the `.hang` file of one incident id): in
        /// no count, group or stack.
        package var duplicatesLinked = 0
        /// Hangs whose stack arrived once the stack limit was reached: in no stack.
        package var stacksUngrouped = 0
    }

    /// When the report was made, ISO 8601 in UTC (`2024-06-01T12:00:00Z`).
    ///
    /// Nil when the caller gave no clock. `report` takes it from `SOURCE_DATE_EPOCH` when set, so a build can
    /// reproduce a page byte for byte.
    package var generatedAt: String?
    package var inputs = Inputs()
    package var categories = Categories()
    package var hangs = Hangs()
    package var filters = Filters()
    package var crashes = Crashes()
    package var watchdog = Watchdog()
    package var oom = OOM()
    package var metricKit: [MetricKitRow] = []
    /// Resource reports (142, 145, 202, 206) and EXC_RESOURCE crash reports grouped by their heaviest stack.
    package var resourceKills = ResourceKills()
    /// The MetricKit fleet view `scan` prints: exits by reason, per version and per device type.
    package var metricKitFleet = MetricKitFleetSummary()
    /// Findings about the inputs (lines of NDJSON that were not envelopes), the first ones only.
    package var findings: [String] = []
    /// The same findings as data, each with its stable code (docs/diagnostics.md): `diagnostics` in the JSON.
    package var diagnostics: [FleetFinding] = []

    package init() {}
}
