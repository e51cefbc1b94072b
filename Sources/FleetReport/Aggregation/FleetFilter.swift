import APMInspectCore

/// `--since`, `--app`, `--version`: which reports enter the fleet report.
public struct FleetFilter: Sendable, Equatable {
    /// Reports written before this time (seconds since 1970) are left out, and so are undated ones.
    public var since: Double?
    /// A bundle id or process name: other apps' reports are left out.
    public var app: String?
    /// An app version (`3.2.0`) or build (`418`): other versions are left out, and so are reports that carry none
    /// (JetsamEvents).
    public var version: String?

    public init(since: Double? = nil, app: String? = nil, version: String? = nil) {
        self.since = since
        self.app = app
        self.version = version
    }

    /// Reads `--since`: a day (`2024-06-01`, midnight UTC) or a time as reports write it (ISO 8601 with offset).
    public static func parseSince(_ text: String) -> Double? {
        if let day = DayCounts.day(isoDate: text) { return Double(day) * 86_400 }
        return AppleTimestamp(text)?.secondsSince1970
    }

    public var isEmpty: Bool { since == nil && app == nil && version == nil }

    func admits(date: AppleTimestamp?) -> Bool {
        guard let since else { return true }
        guard let date, date.secondsSince1970.isFinite else { return false }
        return date.secondsSince1970 >= since
    }

    func admits(_ context: FleetEvent.Context) -> Bool {
        guard admits(date: context.date) else { return false }
        if let app, context.bundleId != app, context.process != app { return false }
        if let version, context.appVersion != version, context.appBuild != version { return false }
        return true
    }

    func admits(_ oom: FleetEvent.OOM) -> Bool {
        guard admits(date: oom.date), version == nil else { return false }
        if let app, !oom.killedNames.contains(app) { return false }
        return true
    }

    func admits(_ figures: FleetEvent.MetricKitFigures) -> Bool {
        guard admits(date: figures.date) else { return false }
        if let app, figures.bundleId != app { return false }
        if let version, figures.version != version { return false }
        return true
    }
}
