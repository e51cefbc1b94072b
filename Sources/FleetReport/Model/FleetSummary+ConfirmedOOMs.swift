extension FleetSummary {
    /// Memory kills of an app that the OS itself reported, counted once each, with the source of each count: a
    /// JetsamEvent that killed an app or extension (`jetsamEvent`), or a MetricKit memory-exception diagnostic
    /// (`metrickit`, iOS 27), which also carries the app's call stack.
    ///
    /// Only OS evidence counts here: MetricKit's memory-limit exit counts (``MemoryKillsRow``) and crash reporters'
    /// OOM heuristics say less, and JetsamEvents that killed daemons alone are memory pressure, not the app's OOM.
    package struct ConfirmedOOMs: Sendable, Equatable, Encodable {
        package var count = 0
        /// Counts by source, sources with none left out.
        package var sources: [String: Int] = [:]

        package init() {}

        package init(jetsamEvents: Int, metricKitMemoryExceptions: Int) {
            if jetsamEvents > 0 { sources["jetsamEvent"] = jetsamEvents }
            if metricKitMemoryExceptions > 0 { sources["metrickit"] = metricKitMemoryExceptions }
            count = FleetAggregator.adding(max(0, jetsamEvents), max(0, metricKitMemoryExceptions))
        }
    }
}
