/// The MetricKit fleet view, one shape for `scan`'s text and JSON and `report`'s ``FleetSummary``.
///
/// Exits by reason, diagnostics by kind, and per app version and per device type the hang rate and the
/// launch-time distribution: what triage asks of a folder of payloads, which one payload cannot answer.
///
/// Lists are in a fixed order (exit reasons in MetricKit's order, versions newest first, devices by payloads),
/// so the same payloads give the same bytes whatever order they were read in.
package struct MetricKitFleetSummary: Sendable, Equatable, Encodable {
    /// One exit reason, summed over every metric payload.
    package struct ExitRow: Sendable, Equatable, Encodable {
        /// The reason as the reader names it (`memoryResourceLimit`, `cPUResourceLimit`).
        package var reason: String
        /// The reason in words (`memory limit`).
        package var label: String
        package var foreground: Int64
        package var background: Int64
    }

    /// Time to first draw, estimated from the launch histograms (see docs/metrickit.md).
    package struct Launch: Sendable, Equatable, Encodable {
        /// Launches counted in the histograms' buckets.
        package var count: Int64
        package var p50Seconds: Double?
        package var p90Seconds: Double?
        /// Launches in buckets past the bucket limits (hostile or unusual payloads): not in the count or estimates.
        package var samplesLeftOut: Int64
    }

    /// The figures of one app version or one device type.
    package struct Row: Sendable, Equatable, Encodable {
        /// The app version or the device type (`?` when the payloads do not say).
        package var name: String
        package var metricPayloads: Int
        package var exits: [String: Int64]
        package var diagnostics: [String: Int]
        package var hangSeconds: Double
        package var foregroundSeconds: Double
        /// Seconds of hang per hour in the foreground; nil without foreground time.
        package var hangRate: Double?
        /// Nil when no payload had a launch histogram.
        package var launch: Launch?
    }

    /// Metric payloads read.
    package var metricPayloads = 0
    /// Every exit reason met, foreground and background side by side.
    package var exits: [ExitRow] = []
    /// Diagnostics by kind (`crash`, `hang`, `cpuException` …) over every payload.
    package var diagnostics: [String: Int] = [:]
    package var hangSeconds = 0.0
    package var foregroundSeconds = 0.0
    package var hangRate: Double?
    package var launch: Launch?
    /// Newest version first.
    package var byVersion: [Row] = []
    /// Most metric payloads first, then by name.
    package var byDevice: [Row] = []
    /// Figures whose version or device arrived once the group limit was reached: in the totals, not in a row.
    package var ungroupedVersions = 0
    package var ungroupedDevices = 0

    package init() {}

    /// True when no MetricKit payload was met.
    package var isEmpty: Bool { metricPayloads == 0 && diagnostics.isEmpty }
}
