import APMInspectCore

/// The figures of an `MXMetricPayload`, read generically: every category object (`cpuMetrics`, `memoryMetrics`,
/// `applicationExitMetrics` …) is walked and each figure kept under its key path, with its unit, so categories
/// added by later OS versions are read too.
public struct MetricKitMetrics: Sendable, Equatable, Codable {
    /// A histogram (`histogramValue` buckets) summarised.
    public struct Histogram: Sendable, Equatable, Codable {
        /// One histogram bucket: its bounds and how many values fell in it.
        public struct Bucket: Sendable, Equatable, Codable {
            public var start: MetricKitMeasurement?
            public var end: MetricKitMeasurement?
            public var count: Int64
        }

        /// Buckets in the order of their start value.
        public var buckets: [Bucket]
        /// `histogramNumBuckets` as written.
        public var declaredBuckets: Int64?
        /// Samples over every bucket.
        public var total: Int64
        /// Estimates from the buckets (linear inside the bucket holding the rank), in the buckets' unit.
        public var p50: Double?
        public var p90: Double?
        /// The unit of the bucket bounds and the estimates.
        public var unit: String?
    }

    /// An average (`averageValue`, `standardDeviation`, `sampleCount`).
    public struct Average: Sendable, Equatable, Codable {
        public var value: MetricKitMeasurement?
        public var standardDeviation: Double?
        public var sampleCount: Int64?
    }

    /// One figure.
    public struct Entry: Sendable, Equatable, Codable {
        /// The top-level key (`cpuMetrics`).
        public var category: String
        /// The path inside the category (`backgroundExitData.cumulativeMemoryResourceLimitExitCount`).
        public var name: String
        /// A figure with a unit (`"100 sec"`).
        public var measurement: MetricKitMeasurement?
        /// A plain number (exit counts, signpost counts).
        public var number: Double?
        /// A string that is not a figure (a signpost's name), as written.
        public var text: String?
        public var histogram: Histogram?
        public var average: Average?
    }

    /// `appVersion` at the payload's top level.
    public var appVersion: String?
    /// `metaData`.
    public var metadata: MetricKitMetadata?
    public var entries: [Entry]
    /// App exits by reason, from `applicationExitMetrics` (`foreground.normal`, `background.memoryLimit` …).
    public var exits: [String: Int64]

    package init() {
        entries = []
        exits = [:]
    }
}
