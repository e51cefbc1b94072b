import APMInspectCore

/// `--since`, `--app`, `--version`: which reports enter the fleet report.
public struct FleetFilter: Sendable, Equatable {
    /// Reports written before this time (seconds since 1970) are left out, and so are undated ones.
    public var since: Double?
    /// Bundle ids or process names, from the repeatable `--app`: other apps' reports are left out.
    ///
    /// A JetsamEvent stays when one of them was killed or was on screen (its entries carry process names, not
    /// bundle ids).
    public var apps: [String]
    /// The first of ``apps``; setting it replaces them.
    package var app: String? {
        get { apps.first }
        set { apps = newValue.map { [$0] } ?? [] }
    }
    /// An app version (`3.2.0`) or build (`418`): other versions are left out, and so are reports that carry none
    /// (JetsamEvents).
    public var version: String?

    /// A filter on time (seconds since 1970), app and version; nil or empty accepts all.
    public init(since: Double? = nil, app: String? = nil, version: String? = nil, apps: [String] = []) {
        self.since = since
        self.apps = (app.map { [$0] } ?? []) + apps
        self.version = version
    }

    /// Reads `--since`: a day (`2024-06-01`, midnight UTC) or a time as reports write it (ISO 8601 with offset).
    package static func parseSince(_ text: String) -> Double? {
        if let day = DayCounts.day(isoDate: text) { return Double(day) * 86_400 }
        return AppleTimestamp(text)?.secondsSince1970
    }

    /// True when the filter accepts every event.
    public var isEmpty: Bool { since == nil && apps.isEmpty && version == nil }

    /// True when `--app` keeps a report of this bundle id or process name (or no `--app` was given).
    package func admitsApp(bundleId: String?, process: String?) -> Bool {
        if apps.isEmpty { return true }
        return apps.contains { $0 == bundleId || $0 == process }
    }

    /// True when `--app` keeps a JetsamEvent with these killed and frontmost process names.
    package func admitsJetsam(killed: [String], frontmost: [String]) -> Bool {
        if apps.isEmpty { return true }
        return apps.contains { killed.contains($0) || frontmost.contains($0) }
    }

    func admits(date: AppleTimestamp?) -> Bool {
        guard let since else { return true }
        guard let date, date.secondsSince1970.isFinite else { return false }
        return date.secondsSince1970 >= since
    }

    func admits(_ context: FleetEvent.Context) -> Bool {
        guard admits(date: context.date) else { return false }
        if !admitsApp(bundleId: context.bundleId, process: context.process) { return false }
        if let version, context.appVersion != version, context.appBuild != version { return false }
        return true
    }

    func admits(_ oom: FleetEvent.OOM) -> Bool {
        guard admits(date: oom.date), version == nil else { return false }
        if !admitsJetsam(killed: oom.killedNames, frontmost: oom.frontmostNames) { return false }
        return true
    }

    func admits(_ figures: FleetEvent.MetricKitFigures) -> Bool {
        guard admits(date: figures.date) else { return false }
        if !apps.isEmpty, !apps.contains(where: { $0 == figures.bundleId }) { return false }
        if let version, figures.version != version { return false }
        return true
    }
}
