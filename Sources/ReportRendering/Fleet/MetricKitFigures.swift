import FleetReport

/// The MetricKit figures of a fleet row, worked out once for every table that shows them.
///
/// The fleet report's rows by version (`FleetSummary.MetricKitRow`) and the rows by version or device type of scan
/// and of the report (`MetricKitFleetSummary.Row`) show them alike, in text and in HTML.
protocol MetricKitFigures {
    var exits: [String: Int64] { get }
    var diagnostics: [String: Int] { get }
    var hangRate: Double? { get }
    var launch: MetricKitFleetSummary.Launch? { get }
}

extension FleetSummary.MetricKitRow: MetricKitFigures {}
extension MetricKitFleetSummary.Row: MetricKitFigures {}

extension MetricKitFigures {
    /// Exits of every reason; the sum wraps rather than traps, the counts being the payloads' own.
    var exitTotal: Int64 {
        exits.values.reduce(Int64(0)) { $0.addingReportingOverflow($1).partialValue }
    }

    /// The exit reasons that happened, each with its count, the most frequent first (ties by name), the first
    /// `limit` of them.
    func exitReasons(atMost limit: Int = .max) -> String {
        exits.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .filter { $0.value > 0 }.prefix(limit).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// Each kind of diagnostic with its count, in the order of the kinds.
    var diagnosticCounts: String {
        diagnostics.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// The hang rate in seconds per hour, the launches, and the first draw's p50 and p90, in the order every
    /// MetricKit table shows them side by side; `–` for what is unknown.
    var rateAndLaunchFigures: [String] {
        [
            hangRate.map(Formatting.oneDecimal) ?? "–",
            launch.map { Formatting.grouped($0.count) } ?? "–",
            launch?.p50Seconds.map(ScanRenderer.milliseconds) ?? "–",
            launch?.p90Seconds.map(ScanRenderer.milliseconds) ?? "–",
        ]
    }
}
