/// The MetricKit fleet view, one shape for `scan`'s text and JSON and `report`'s ``FleetSummary``.
///
/// Exits by reason, diagnostics by kind, and per app version and per device type the hang rate and the
/// launch-time distribution: what triage asks of a folder of payloads, which one payload cannot answer.
///
/// Lists are in a fixed order (exit reasons in MetricKit's order, versions newest first, devices by payloads),
/// so the same payloads give the same bytes whatever order they were read in.
public struct MetricKitFleetSummary: Sendable, Equatable, Encodable {
    /// One exit reason, summed over every metric payload.
    public struct ExitRow: Sendable, Equatable, Encodable {
        /// The reason as the reader names it (`memoryResourceLimit`, `cPUResourceLimit`).
        public var reason: String
        /// The reason in words (`memory limit`).
        public var label: String
        public var foreground: Int64
        public var background: Int64
    }

    /// Time to first draw, estimated from the launch histograms (see docs/metrickit.md).
    public struct Launch: Sendable, Equatable, Encodable {
        /// Launches counted in the histograms' buckets.
        public var count: Int64
        public var p50Seconds: Double?
        public var p90Seconds: Double?
        /// Launches in buckets past the bucket limits (hostile or unusual payloads): not in the count or estimates.
        public var samplesLeftOut: Int64
    }

    /// The figures of one app version or one device type.
    public struct Row: Sendable, Equatable, Encodable {
        /// The app version or the device type (`?` when the payloads do not say).
        public var name: String
        public var metricPayloads: Int
        public var exits: [String: Int64]
        public var diagnostics: [String: Int]
        public var hangSeconds: Double
        public var foregroundSeconds: Double
        /// Seconds of hang per hour in the foreground; nil without foreground time.
        public var hangRate: Double?
        /// Nil when no payload had a launch histogram.
        public var launch: Launch?
    }

    /// Metric payloads read.
    public var metricPayloads = 0
    /// Every exit reason met, foreground and background side by side.
    public var exits: [ExitRow] = []
    /// Diagnostics by kind (`crash`, `hang`, `cpuException` …) over every payload.
    public var diagnostics: [String: Int] = [:]
    public var hangSeconds = 0.0
    public var foregroundSeconds = 0.0
    public var hangRate: Double?
    public var launch: Launch?
    /// Newest version first.
    public var byVersion: [Row] = []
    /// Most metric payloads first, then by name.
    public var byDevice: [Row] = []
    /// Figures whose version or device arrived once the group limit was reached: in the totals, not in a row.
    public var ungroupedVersions = 0
    public var ungroupedDevices = 0

    package init() {}

    /// True when no MetricKit payload was met.
    public var isEmpty: Bool { metricPayloads == 0 && diagnostics.isEmpty }
}
