import APMInspectCore
import CrashReportParsing
import JetsamParsing
import MetricKitParsing

/// Folds fleet events into the fleet report, keeping groups and bounded tallies, never the events.
///
/// Every tally is independent of the order events arrive in (see `CappedCounts` and `DayCounts`; ties are
/// broken by value). Crashes are kept as small records until the summary links the copies of one crash that several
/// reporters sent (`CrashLedger`) and groups each crash once.
public struct FleetAggregator: Sendable {
    private struct Group {
        var count = 0
        var undated = 0
        var first: AppleTimestamp?
        var last: AppleTimestamp?
        var representative: FleetEvent.Crash
        var representativeFile: String
        /// The rule that made the group (nil for a signature's group): the representative crash's.
        var grouping: GroupingMatch?
        var appVersions: CappedCounts
        var osVersions: CappedCounts
        var devices: CappedCounts
        var sources: [String: Int] = [:]
        /// Reports linked to another report of one of the group's crashes: in `sources`, not in `count`.
        var duplicatesLinked = 0
        /// Crashes of the group that more than one reporter sent.
        var linkedCrashes = 0
        /// Per app (``FleetAggregator/app(of:)``), the oldest version the group was seen in.
        var oldestByApp: [String: String] = [:]
        var days: DayCounts
        /// The first files by bytes, sorted, at most ``FleetLimits/maxFilesPerGroup``.
        var files: [String] = []
        /// Distinct files, counted once the group's crashes are all in.
        var distinctFiles = 0
    }

    /// Apps a group follows the oldest version of: a signature is an app's own, so more is hostile input.
    private static let maxAppsPerGroup = 64

    private struct WatchdogKey: Hashable {
        var reason: String
        var verdict: String
    }

    private struct AppVersionKey: Hashable {
        var app: String
        var version: String
    }

    private struct HangTally {
        var payloads = 0
        var hangSeconds = 0.0
        var foregroundSeconds = 0.0
    }

    private struct DeviceTally {
        var deviceName: String?
        var events = 0
        var killed = 0
    }

    /// Which reports count: the rest are read and left out.
    public let filter: FleetFilter
    /// The bounds on the groups kept, so any fleet fits in memory.
    public let limits: FleetLimits
    private var inputs = FleetSummary.Inputs()
    /// Every crash report read, as a small record: grouped when the summary is made.
    private var crashLedger: CrashLedger
    /// Crash reports admitted, copies of one crash from several reporters included.
    private var crashReports = 0
    private var newestVersion: String?
    private var newestByApp: [String: String] = [:]
    private var watchdogRows: [WatchdogKey: (count: Int, example: String)] = [:]
    private var watchdogTotal = 0
    private var ungroupedWatchdog = 0
    private var devices: [String: DeviceTally] = [:]
    private var oomEvents = 0
    /// JetsamEvents that killed daemons alone (in ``oomEvents`` too: the memory limits use every kill).
    private var systemOOMEvents = 0
    private var oomKilled = 0
    /// MetricKit memory-exception diagnostics: OOMs the OS reported with the app's stack.
    private var metricKitMemoryExceptions = 0
    private var ungroupedDevices = 0
    private var limitTable = MemoryLimitTable(options: .init(includeBeta: true, includeModifiedKernels: true))
    private var metricKit: MetricKitFleet
    private var findings: [String] = []
    private var diagnostics: [FleetFinding] = []
    private var categories = FleetSummary.Categories()
    private var hangs = FleetSummary.Hangs()
    private var truthTable: OOMTruthTable
    /// MetricKit's hang and foreground time per (app, version): the hang rates.
    private var hangRates: [AppVersionKey: HangTally] = [:]
    private var ungroupedHangRates = 0
    private var resourceGroups: ResourceKillGroups
    private var hangGroups: HangGroups
    /// The incident ids of the hangs counted so far (hangs are few: a set of ids, not records).
    private var countedHangIncidents: Set<String> = []

    /// An aggregator that keeps the events `filter` accepts, within `limits`.
    public init(filter: FleetFilter = FleetFilter(), limits: FleetLimits = FleetLimits()) {
        self.init(filter: filter, limits: limits, crashSpillThreshold: CrashLedger.defaultSpillThreshold)
    }

    /// An aggregator whose crash ledger writes its records to a private temporary file (in `spillDirectory`, else
    /// `TMPDIR`) past `crashSpillThreshold` bytes; tests make it tiny so that every run spills.
    package init(
        filter: FleetFilter = FleetFilter(),
        limits: FleetLimits = FleetLimits(),
        crashSpillThreshold: Int,
        spillDirectory: String? = nil
    ) {
        self.filter = filter
        self.limits = limits
        crashLedger = CrashLedger(spillThreshold: crashSpillThreshold, spillDirectory: spillDirectory)
        metricKit = MetricKitFleet(maxGroups: limits.maxRows)
        truthTable = OOMTruthTable(capacity: limits.maxRows)
        resourceGroups = ResourceKillGroups(limits: limits)
        hangGroups = HangGroups(limits: limits)
    }

    /// Notes a finding about the inputs (kept up to ``FleetLimits/maxFindings``); `rejectedLine` counts an NDJSON
    /// line that was not an envelope.
    public mutating func note(_ finding: String, rejectedLine: Bool = false) {
        if rejectedLine { inputs.rejectedLines += 1 }
        if findings.count < limits.maxFindings { findings.append(finding) }
    }

    /// Notes a finding with its code: listed as `line` (by default the finding's own line) under `findings`, and
    /// as data under `diagnostics`, both kept up to ``FleetLimits/maxFindings``.
    public mutating func note(_ finding: FleetFinding, line: String? = nil, rejectedLine: Bool = false) {
        note(line ?? finding.line, rejectedLine: rejectedLine)
        if diagnostics.count < limits.maxFindings { diagnostics.append(finding) }
    }

    /// Counts one event; `fromNDJSON` says it came from an envelope line rather than a file.
    public mutating func add(_ event: FleetEvent, fromNDJSON: Bool = false) {
        if let reason = Self.skipReason(event) {
            inputs.skippedFiles += 1
            keepSkipped(FleetSummary.SkippedFile(file: event.file, kind: event.kind, reason: reason))
        }
        inputs.reports += 1
        if fromNDJSON { inputs.ndjsonEnvelopes += 1 }
        // Kinds come from NDJSON too, where they are any text: a few dozen are kept.
        if inputs.kinds[event.kind] != nil || inputs.kinds.count < 64 { inputs.kinds[event.kind, default: 0] += 1 }
        if event.unreadable { inputs.unreadable += 1 }
        for crash in event.crashes {
            if filter.admits(crash.context) { add(crash, file: event.file) } else { inputs.excluded += 1 }
        }
        if let watchdog = event.watchdog {
            if filter.admits(watchdog.context) {
                add(watchdog, file: event.file)
                truthTable.learn(watchdog.context)
                truthTable.add(termination: watchdog.context, inferredOOM: false, source: event.kind)
            } else {
                inputs.excluded += 1
            }
        }
        if let oom = event.oom {
            if filter.admits(oom) { add(oom) } else { inputs.excluded += 1 }
        }
        for figures in event.metricKit {
            if filter.admits(figures) { add(figures) } else { inputs.excluded += 1 }
        }
        if let occurrence = event.occurrence, occurrence.category == .hang, let incident = occurrence.incidentId,
            filter.admits(occurrence.context), !countedHangIncidents.insert(incident).inserted
        {
            // Another report of a hang already counted: Apple writes one hang as an `.ips` and as a `.hang` file.
            hangs.duplicatesLinked = Self.adding(hangs.duplicatesLinked, 1)
            for hang in event.hangs where filter.admits(hang.context) { hangGroups.addFile(of: hang, file: event.file) }
            return
        }
        if let occurrence = event.occurrence {
            if filter.admits(occurrence.context) { add(occurrence, kind: event.kind) } else { inputs.excluded += 1 }
        }
        if let resource = event.resource {
            if filter.admits(resource.context) {
                resourceGroups.add(resource, file: event.file)
            } else if event.crashes.isEmpty, event.watchdog == nil, event.occurrence == nil {
                // Counted once: a report that also gave a crash or an occurrence was counted with it.
                inputs.excluded += 1
            }
        }
        // Counted as excluded with the report's crash, occurrence, watchdog or MetricKit figures.
        for hang in event.hangs where filter.admits(hang.context) { hangGroups.add(hang, file: event.file) }
    }

    /// Why an event adds nothing to the report, or nil when it adds something (even if the filters leave it out).
    static func skipReason(_ event: FleetEvent) -> String? {
        if event.unreadable {
            let failure = event.failure ?? ""
            return failure.isEmpty ? "could not be read" : "could not be read: " + failure
        }
        guard event.crashes.isEmpty, event.watchdog == nil, event.oom == nil, event.metricKit.isEmpty,
            event.occurrence == nil, event.resource == nil, event.hangs.isEmpty
        else { return nil }
        if event.kind == "unknown" { return "not a report the fleet report reads" }
        return "nothing the fleet report counts in a report of kind \(event.kind)"
    }

    /// The app a context speaks of: its bundle id, else its process name, else `?`.
    static func app(of context: FleetEvent.Context) -> String {
        if let bundleId = context.bundleId, !bundleId.isEmpty { return bundleId }
        if let process = context.process, !process.isEmpty { return process }
        return "?"
    }

    /// A version as the report compares it: nil for one that is missing, blank or only question marks (`???`).
    static func version(_ text: String?) -> String? {
        guard let text else { return nil }
        guard text.trimmingASCIIWhitespace().contains(where: { $0 != "?" }) else { return nil }
        return text
    }

    private mutating func add(_ occurrence: FleetEvent.Occurrence, kind: String) {
        noteVersion(occurrence.context)
        truthTable.learn(occurrence.context)
        switch occurrence.category {
        case .outOfMemory:
            truthTable.add(termination: occurrence.context, inferredOOM: true, source: kind)
        case .watchdogTermination, .resourceKill:
            truthTable.add(termination: occurrence.context, inferredOOM: false, source: kind)
        default: break
        }
        switch occurrence.category {
        case .crash: categories.crashes += 1
        case .hang:
            categories.hangs += 1
            hangs.total += 1
            if occurrence.recovered == true { hangs.recovered += 1 }
            if let seconds = occurrence.hangSeconds, seconds.isFinite, seconds >= 0 {
                hangs.measured += 1
                hangs.totalSeconds += seconds
                hangs.longestSeconds = max(hangs.longestSeconds ?? 0, seconds)
            }
        case .watchdogTermination: categories.watchdogTerminations += 1
        case .outOfMemory: categories.outOfMemory += 1
        case .resourceKill: categories.resourceKills += 1
        case .profile: categories.profiles += 1
        case .resourceWarning: categories.resourceWarnings += 1
        case .systemWatchdog: categories.systemWatchdogs += 1
        }
    }

    private mutating func noteVersion(_ context: FleetEvent.Context) {
        noteVersion(context.appVersion, app: Self.app(of: context))
    }

    /// Notes a version of `app`: its newest, and the newest over all apps.
    private mutating func noteVersion(_ text: String?, app: String) {
        guard let version = Self.version(text) else { return }
        if let newest = newestByApp[app] {
            if VersionOrder.precedes(newest, version) { newestByApp[app] = version }
        } else if newestByApp.count < limits.maxApps {
            newestByApp[app] = version
        }
        if let newest = newestVersion, !VersionOrder.precedes(newest, version) { return }
        newestVersion = version
    }

    private mutating func add(_ crash: FleetEvent.Crash, file: String) {
        crashReports += 1
        truthTable.learn(crash.context)
        noteVersion(crash.context)
        crashLedger.add(crash, file: file)
    }

    /// The crash groups: the ledger's records linked into crashes, each crash counted once in the group of its
    /// richest report, with the sources and files of all of them.
    private func crashGroups() -> (
        groups: [String: Group], ungrouped: Int, crashes: Int, duplicates: Int, complete: Bool
    ) {
        var groups: [String: Group] = [:]
        var ungrouped = 0
        var crashes = 0
        var duplicates = 0
        // Crashes come key by key (the group of each crash first, so groups are made, and the group limit reached,
        // in an order of the crashes' content, not of their arrival): a group's files are counted when its key ends,
        // sorted (on disk past the ledger's threshold) rather than kept in a set as long as the input.
        var currentKey: String?
        var files = SpillSort<SpillText>(budget: 0, directory: nil, by: SpillText.precedes)
        var filesComplete = true
        func countFiles() {
            guard let key = currentKey, groups[key] != nil else { return }
            defer { filesComplete = filesComplete && !files.failed }
            var distinct = 0
            var previous: SpillText?
            for file in files {
                if file != previous { distinct += 1 }
                previous = file
            }
            groups[key]?.distinctFiles = distinct
        }
        let complete = crashLedger.forEachCrash(in: .grouping) { linked in
            guard let first = linked.reports.first else { return }
            let key = linked.key
            if key != currentKey {
                countFiles()
                currentKey = key
                files = SpillSort(
                    budget: crashLedger.spillThreshold,
                    directory: crashLedger.spillDirectory,
                    by: SpillText.precedes
                )
            }
            crashes += 1
            duplicates += linked.reports.count - 1
            let crash = first.crash
            var group: Group
            if let existing = groups[key] {
                group = existing
            } else {
                guard groups.count < limits.maxGroups else {
                    ungrouped += 1
                    return
                }
                group = Group(
                    representative: crash,
                    representativeFile: first.file,
                    grouping: crash.grouping,
                    appVersions: CappedCounts(capacity: limits.maxVersions, order: VersionOrder.precedes),
                    osVersions: CappedCounts(capacity: limits.maxVersions, order: VersionOrder.precedes),
                    devices: CappedCounts(capacity: limits.maxDevices),
                    days: DayCounts(capacity: limits.maxDays)
                )
            }
            add(crash, file: first.file, to: &group)
            // The crash's time: its richest report's, or the first instant among the others when that one only
            // knows a MetricKit payload's range.
            var date = crash.context.date
            if first.isRanged {
                for member in linked.reports.dropFirst() where !member.isRanged {
                    if let instant = member.crash.context.date {
                        date = instant
                        break
                    }
                }
            }
            if let date, let day = DayCounts.day(ofSecondsSince1970: date.secondsSince1970) {
                group.days.add(day: day)
                if group.first.map({ Self.earlier(date, $0) }) ?? true { group.first = date }
                if group.last.map({ Self.earlier($0, date) }) ?? true { group.last = date }
            } else {
                group.undated += 1
            }
            for member in linked.reports {
                group.sources[member.crash.source, default: 0] += 1
                Self.keep(member.file, in: &group.files, capacity: limits.maxFilesPerGroup)
                files.append(SpillText(member.file))
            }
            if linked.reports.count > 1 {
                group.linkedCrashes += 1
                group.duplicatesLinked += linked.reports.count - 1
            }
            groups[key] = group
        }
        countFiles()
        return (groups, ungrouped, crashes, duplicates, complete && filesComplete)
    }

    /// Counts one crash (its richest report) in `group`, but for its date.
    private func add(_ crash: FleetEvent.Crash, file: String, to group: inout Group) {
        let context = crash.context
        let version = Self.version(context.appVersion)
        group.count += 1
        if group.count > 1, Self.represents(crash, file: file, over: group.representative, group.representativeFile) {
            group.representative = crash
            group.representativeFile = file
            group.grouping = crash.grouping
        }
        group.appVersions.add(version ?? "?")
        group.osVersions.add(Self.value(context.osVersion))
        group.devices.add(Self.value(context.device))
        if let version {
            let app = Self.app(of: context)
            if let oldest = group.oldestByApp[app] {
                if VersionOrder.precedes(version, oldest) { group.oldestByApp[app] = version }
            } else if group.oldestByApp.count < Self.maxAppsPerGroup {
                group.oldestByApp[app] = version
            }
        }
    }

    /// A field's value for a group's tallies: `?` when missing or blank.
    static func value(_ text: String?) -> String {
        guard let text, !text.trimmingASCIIWhitespace().isEmpty else { return "?" }
        return text
    }

    /// Keeps `file` among the first `capacity` paths by bytes, sorted; the list does not depend on arrival order.
    static func keep(_ file: String, in files: inout [String], capacity: Int) {
        let index = files.firstIndex { !$0.utf8.lexicographicallyPrecedes(file.utf8) } ?? files.endIndex
        if index < files.endIndex, files[index] == file { return }
        guard index < capacity else { return }
        files.insert(file, at: index)
        if files.count > capacity { files.removeLast() }
    }

    /// True when `lhs` is earlier than `rhs`; equal instants are ordered by their text, so ties do not depend on
    /// the order of the reports.
    static func earlier(_ lhs: AppleTimestamp, _ rhs: AppleTimestamp) -> Bool {
        if lhs.secondsSince1970 != rhs.secondsSince1970 { return lhs.secondsSince1970 < rhs.secondsSince1970 }
        return lhs.iso8601.utf8.lexicographicallyPrecedes(rhs.iso8601.utf8)
    }

    /// The newest dated crash represents its group; among equally new ones, the first path by bytes.
    private static func represents(
        _ crash: FleetEvent.Crash,
        file: String,
        over current: FleetEvent.Crash,
        _ currentFile: String
    ) -> Bool {
        switch (crash.context.date, current.context.date) {
        case (nil, .some): return false
        case (.some, nil): return true
        case (.some(let new), .some(let old)):
            if earlier(old, new) { return true }
            if earlier(new, old) { return false }
        case (nil, nil): break
        }
        return file.utf8.lexicographicallyPrecedes(currentFile.utf8)
    }

    private mutating func add(_ watchdog: FleetEvent.Watchdog, file: String) {
        watchdogTotal += 1
        if watchdog.category == .resourceKill {
            categories.resourceKills += 1
        } else {
            categories.watchdogTerminations += 1
        }
        noteVersion(watchdog.context)
        let key = WatchdogKey(reason: watchdog.reason, verdict: watchdog.verdict ?? "none")
        if var row = watchdogRows[key] {
            row.count += 1
            if file.utf8.lexicographicallyPrecedes(row.example.utf8) { row.example = file }
            watchdogRows[key] = row
        } else if watchdogRows.count < limits.maxRows {
            watchdogRows[key] = (1, file)
        } else {
            ungroupedWatchdog += 1
        }
    }

    private mutating func add(_ oom: FleetEvent.OOM) {
        // A copy of an incident already counted (`.ips` and `.ips.synced`, or one file twice) is one OOM, as in
        // `memory-limits`.
        guard !limitTable.hasSeen(oom.evidence) else {
            limitTable.add(oom.evidence)
            return
        }
        oomEvents += 1
        truthTable.add(oom)
        if oom.killedDaemonsOnly { systemOOMEvents += 1 }
        oomKilled += oom.killed
        let device = oom.evidence.product ?? "?"
        if var tally = devices[device] ?? (devices.count < limits.maxRows ? DeviceTally() : nil) {
            tally.events += 1
            tally.killed += oom.killed
            if tally.deviceName == nil { tally.deviceName = oom.deviceName }
            devices[device] = tally
        } else {
            ungroupedDevices += 1
        }
        limitTable.add(oom.evidence)
    }

    private mutating func add(_ figures: FleetEvent.MetricKitFigures) {
        noteVersion(figures.version, app: figures.bundleId.flatMap { $0.isEmpty ? nil : $0 } ?? "?")
        metricKit.add(figures)
        truthTable.add(figures)
        if figures.metricPayloads > 0 {
            let key = AppVersionKey(
                app: figures.bundleId.flatMap { $0.isEmpty ? nil : $0 } ?? "?",
                version: Self.version(figures.version) ?? "?"
            )
            if var tally = hangRates[key] ?? (hangRates.count < limits.maxRows ? HangTally() : nil) {
                tally.payloads = Self.adding(tally.payloads, figures.metricPayloads)
                tally.hangSeconds += figures.hangSeconds
                tally.foregroundSeconds += figures.foregroundSeconds
                hangRates[key] = tally
            } else {
                ungroupedHangRates += 1
            }
        }
        let memoryExceptions = figures.diagnostics[MetricKitDiagnostic.Kind.memoryException.rawValue] ?? 0
        metricKitMemoryExceptions = Self.adding(metricKitMemoryExceptions, max(0, memoryExceptions))
    }

    /// Keeps `skipped` among the ``FleetLimits/maxFindings`` first skipped files by path bytes (then kind and
    /// reason), in that order: which files are listed must not depend on the order the reports were read in, since
    /// a Spark or Ray job hands them over in whatever order its partitions finish.
    private mutating func keepSkipped(_ skipped: FleetSummary.SkippedFile) {
        let limit = max(0, limits.maxFindings)
        guard limit > 0 else { return }
        let index = inputs.skipped.firstIndex { !Self.precedes($0, skipped) } ?? inputs.skipped.endIndex
        guard index < limit else { return }
        inputs.skipped.insert(skipped, at: index)
        if inputs.skipped.count > limit { inputs.skipped.removeLast() }
    }

    private static func precedes(_ lhs: FleetSummary.SkippedFile, _ rhs: FleetSummary.SkippedFile) -> Bool {
        if lhs.file != rhs.file { return lhs.file.utf8.lexicographicallyPrecedes(rhs.file.utf8) }
        if lhs.kind != rhs.kind { return lhs.kind.utf8.lexicographicallyPrecedes(rhs.kind.utf8) }
        return lhs.reason.utf8.lexicographicallyPrecedes(rhs.reason.utf8)
    }

    /// The report of everything added so far.
    public func summary() -> FleetSummary {
        var summary = FleetSummary()
        summary.inputs = inputs
        summary.findings = findings
        summary.diagnostics = diagnostics
        summary.categories = categories
        let resolved = crashGroups()
        if !resolved.complete {
            let finding = FleetFinding(
                file: crashLedger.spillDirectory ?? "TMPDIR",
                diagnostic: Diagnostic(
                    .error,
                    .fleetSpillFailed,
                    "the crash ledger's temporary file could not be written or read back: crashes are missing"
                )
            )
            summary.findings.append(finding.line)
            summary.diagnostics.append(finding)
        }
        let groups = resolved.groups
        let crashTotal = resolved.crashes
        summary.categories.crashes += crashTotal
        summary.categories.outOfMemory += oomEvents - systemOOMEvents
        summary.categories.outOfMemory = Self.adding(summary.categories.outOfMemory, metricKitMemoryExceptions)
        summary.categories.systemMemoryKills = systemOOMEvents
        summary.hangs = hangs
        summary.hangs.totalSeconds = Self.rounded(hangs.totalSeconds)
        hangGroups.fill(&summary.hangs)
        summary.hangs.rateByVersionUngrouped = ungroupedHangRates
        summary.hangs.rateByVersion = hangRates.map {
            FleetSummary.HangRateRow(
                app: $0.key.app,
                version: $0.key.version,
                metricPayloads: $0.value.payloads,
                hangSeconds: $0.value.hangSeconds,
                foregroundSeconds: $0.value.foregroundSeconds
            )
        }.sorted { a, b in
            if a.app != b.app { return a.app.utf8.lexicographicallyPrecedes(b.app.utf8) }
            if a.version == "?" || b.version == "?" { return a.version != "?" && b.version == "?" }
            return VersionOrder.precedes(b.version, a.version)
        }
        summary.crashes.total = crashTotal
        summary.crashes.signatures = groups.count
        summary.crashes.ungrouped = resolved.ungrouped
        summary.crashes.reports = crashReports
        summary.crashes.duplicatesLinked = resolved.duplicates
        summary.crashes.linkedCrashes = groups.values.reduce(0) { $0 + $1.linkedCrashes }
        summary.crashes.newestVersion = newestVersion
        summary.crashes.newestVersionByApp = newestByApp
        let total = max(1, crashTotal)
        var rows: [FleetSummary.CrashGroup] = []
        rows.reserveCapacity(groups.count)
        for (signature, group) in groups {
            let isNew =
                !group.oldestByApp.isEmpty && group.oldestByApp.allSatisfy { newestByApp[$0.key] == $0.value }
            let app = Self.app(of: group.representative.context)
            let versionsSeen = group.appVersions.entries.map(\.value).filter { $0 != "?" }
            var row =
                FleetSummary.CrashGroup(
                    signature: signature,
                    count: group.count,
                    share: Self.rounded(Double(group.count) / Double(total)),
                    firstSeen: group.first?.iso8601,
                    lastSeen: group.last?.iso8601,
                    undated: group.undated,
                    process: group.representative.context.process ?? "?",
                    exception: group.representative.exception,
                    topFrame: group.representative.topFrame,
                    representativeFile: group.representativeFile,
                    appVersions: Self.values(group.appVersions),
                    osVersions: Self.values(group.osVersions),
                    devices: Self.values(group.devices),
                    sources: group.sources,
                    newInNewestVersion: isNew,
                    app: app,
                    appNewestVersion: newestByApp[app],
                    newestVersionSeen: versionsSeen.max(by: VersionOrder.precedes),
                    files: group.files,
                    moreFiles: max(0, group.distinctFiles - group.files.count)
                )
            row.duplicatesLinked = group.duplicatesLinked
            row.linkedCrashes = group.linkedCrashes
            if let grouping = group.grouping {
                row.fingerprint = grouping.fingerprint
                row.title = grouping.title
                row.groupingRule = grouping.rule
            }
            rows.append(row)
        }
        rows.sort { $0.count != $1.count ? $0.count > $1.count : $0.signature < $1.signature }
        summary.crashes.groups = rows
        summary.crashes.newInNewestVersion = rows.filter(\.newInNewestVersion).map(\.signature)
        summary.crashes.perDay = rows.prefix(limits.chartGroups).compactMap { row in
            guard let group = groups[row.signature] else { return nil }
            let days = group.days.counts.sorted { $0.key < $1.key }.map {
                FleetSummary.DayCount(day: DayCounts.isoDate(day: $0.key), count: $0.value)
            }
            return FleetSummary.DaySeries(signature: row.signature, days: days, earlier: group.days.earlier)
        }
        summary.watchdog.total = watchdogTotal
        summary.watchdog.ungrouped = ungroupedWatchdog
        summary.watchdog.rows = watchdogRows.map {
            FleetSummary.WatchdogRow(
                reason: $0.key.reason,
                verdict: $0.key.verdict,
                count: $0.value.count,
                example: $0.value.example
            )
        }.sorted {
            if $0.count != $1.count { return $0.count > $1.count }
            if $0.reason != $1.reason { return $0.reason < $1.reason }
            return $0.verdict < $1.verdict
        }
        summary.oom.events = oomEvents
        summary.oom.killed = oomKilled
        summary.oom.ungrouped = ungroupedDevices
        summary.oom.byDevice = devices.map {
            FleetSummary.DeviceRow(
                device: $0.key,
                deviceName: $0.value.deviceName,
                events: $0.value.events,
                killed: $0.value.killed
            )
        }.sorted { $0.killed != $1.killed ? $0.killed > $1.killed : $0.device < $1.device }
        summary.oom.memoryLimits = limitTable.rows
        summary.oom.confirmed = FleetSummary.ConfirmedOOMs(
            jetsamEvents: oomEvents - systemOOMEvents,
            metricKitMemoryExceptions: metricKitMemoryExceptions
        )
        let fleet = metricKit.summary()
        summary.metricKitFleet = fleet
        summary.metricKit = fleet.byVersion.map { row in
            FleetSummary.MetricKitRow(
                version: row.name,
                exits: row.exits,
                diagnostics: row.diagnostics,
                hangSeconds: row.hangSeconds,
                foregroundSeconds: row.foregroundSeconds,
                hangRate: row.hangRate,
                launch: row.launch
            )
        }
        summary.oom.metricKitByVersion = fleet.byVersion.compactMap(FleetSummary.MemoryKillsRow.init(metricKit:))
        let table = truthTable.summary(limits: summary.oom.memoryLimits)
        summary.oom.byVersionAndDevice = table.rows
        summary.oom.byVersionAndDeviceUngrouped = table.ungrouped
        summary.oom.unlinkedKills = table.unlinked
        summary.resourceKills = resourceGroups.result()
        return summary
    }

    private static func values(_ counts: CappedCounts) -> FleetSummary.Values {
        FleetSummary.Values(values: counts.entries, others: counts.others, othersValues: counts.othersValues)
    }

    /// `a + b`, at most `Int.max`: counts from hostile NDJSON saturate instead of trapping.
    package static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }

    /// Six decimals: enough to read, and the same whatever order the sums were made in.
    static func rounded(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return (value * 1_000_000).rounded() / 1_000_000
    }
}
