extension FleetSummary {
    /// A number of events and the kinds of file they came from.
    package struct SourceCounts: Sendable, Equatable, Encodable {
        package var count = 0
        /// Counts by source (`jetsamEvent`, `metrickit`, `kscrash` …), sources with none left out.
        package var sources: [String: Int] = [:]

        package init() {}

        /// Adds `count` events from `source` (saturating: counts from hostile input never trap).
        package mutating func add(_ count: Int, from source: String) {
            guard count > 0 else { return }
            self.count = FleetAggregator.adding(self.count, count)
            sources[source] = FleetAggregator.adding(sources[source] ?? 0, count)
        }
    }

    /// How the JetsamEvent kills of a row were tied to its app version.
    package struct JetsamLinks: Sendable, Equatable, Encodable {
        /// By the killed process's binary UUID, found in a report of the app that names its version.
        package var uuid = 0
        /// By the process name and the app's reports from the same device model near that time.
        package var name = 0
        /// Not tied to a version (the row's version is `?`).
        package var none = 0

        package init() {}
    }

    /// The OOM truth table's row: what every source says of memory kills and other terminations of one app
    /// version on one device model.
    package struct OOMTruthRow: Sendable, Equatable, Encodable {
        /// The bundle id, else the process name (a JetsamEvent's kill tied to no report: its process name).
        package var app: String
        /// `?` when no source tells the version (a kill tied to no report).
        package var version: String
        /// The model identifier (`iPhone15,3`), `?` when the source does not say.
        package var device: String
        /// OOMs the OS reported: a JetsamEvent that killed the app at its limit, a MetricKit memory exception.
        package var confirmed: SourceCounts
        /// OOMs counted without an incident: MetricKit's memory-limit exits, crash reporters' OOM heuristics.
        package var inferred: SourceCounts
        /// Other kills: JetsamEvent kills for other causes, watchdog and resource kills, MetricKit's other
        /// termination exits.
        package var otherTerminations: SourceCounts
        /// The device's app memory limit: the median foreground limit `memory-limits` finds for the model (its OS
        /// build with the most reports); nil when no JetsamEvent shows it.
        package var memoryLimitMB: Double?
        /// How the row's JetsamEvent kills were tied to it.
        package var jetsamLinks: JetsamLinks

        package init(app: String, version: String, device: String) {
            self.app = app
            self.version = version
            self.device = device
            confirmed = SourceCounts()
            inferred = SourceCounts()
            otherTerminations = SourceCounts()
            jetsamLinks = JetsamLinks()
        }
    }
}
