import APMInspectCore

/// The figures of an `MXMetricPayload`, read generically: every category object (`cpuMetrics`, `memoryMetrics`,
/// `applicationExitMetrics` …) is walked and each figure kept under its key path, with its unit, so categories
/// added by later OS versions are read too.
package struct MetricKitMetrics: Sendable, Equatable, Codable {
    /// A histogram (`histogramValue` buckets) summarised.
    package struct Histogram: Sendable, Equatable, Codable {
        /// One histogram bucket: its bounds and how many values fell in it.
        package struct Bucket: Sendable, Equatable, Codable {
            package var start: MetricKitMeasurement?
            package var end: MetricKitMeasurement?
            package var count: Int64
        }

        /// Buckets in the order of their start value.
        package var buckets: [Bucket]
        /// `histogramNumBuckets` as written.
        package var declaredBuckets: Int64?
        /// Samples over every bucket.
        package var total: Int64
        /// Estimates from the buckets (linear inside the bucket holding the rank), in the buckets' unit.
        package var p50: Double?
        package var p90: Double?
        /// The unit of the bucket bounds and the estimates.
        package var unit: String?
    }

    /// An average (`averageValue`, `standardDeviation`, `sampleCount`).
    package struct Average: Sendable, Equatable, Codable {
        package var value: MetricKitMeasurement?
        package var standardDeviation: Double?
        package var sampleCount: Int64?
    }

    /// One figure.
    package struct Entry: Sendable, Equatable, Codable {
        /// The top-level key (`cpuMetrics`).
        package var category: String
        /// The path inside the category (`backgroundExitData.cumulativeMemoryResourceLimitExitCount`).
        package var name: String
        /// A figure with a unit (`"100 sec"`).
        package var measurement: MetricKitMeasurement?
        /// A plain number (exit counts, signpost counts).
        package var number: Double?
        /// A string that is not a figure (a signpost's name), as written.
        package var text: String?
        package var histogram: Histogram?
        package var average: Average?
    }

    /// `appVersion` at the payload's top level.
    package var appVersion: String?
    /// `metaData`.
    package var metadata: MetricKitMetadata?
    package var entries: [Entry]
    /// App exits by reason, from `applicationExitMetrics` (`foreground.normal`, `background.memoryLimit` …).
    package var exits: [String: Int64]

    package init() {
        entries = []
        exits = [:]
    }
}
