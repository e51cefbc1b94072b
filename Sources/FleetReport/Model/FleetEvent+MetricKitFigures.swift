import APMInspectCore
import MetricKitParsing

extension FleetEvent.MetricKitFigures {
    /// Distinct launch-histogram buckets kept per entry: payloads of one OS share their bucket bounds, so this
    /// is far more than a real file needs; a hostile payload with thousands of odd bounds keeps only these (the
    /// samples of the rest are counted in ``launchSamplesLeftOut``).
    package static let maxLaunchBuckets = 1024

    /// Folds one metric payload into the figures: exits, foreground and hang time, launch buckets.
    mutating func add(_ metrics: MetricKitMetrics) {
        metricPayloads += 1
        for (reason, count) in metrics.exits {
            if let index = exits.index(forKey: reason) {
                exits.values[index] = MetricKitFleet.sum(exits.values[index], count)
            } else {
                exits[reason] = MetricKitFleet.sum(0, count)
            }
        }
        // By index: a loop over the entries copied each one (a dozen strings retained and released) to look at two.
        let entries = metrics.entries
        for index in entries.indices {
            let category = entries[index].category
            let name = entries[index].name
            if category == "applicationTimeMetrics", name == "cumulativeForegroundTime" {
                foregroundSeconds += FleetEvent.finite(entries[index].measurement?.normalized)
            }
            if category == "applicationResponsivenessMetrics", name == "histogrammedApplicationHangTime",
                let histogram = entries[index].histogram
            {
                hangSeconds += FleetEvent.histogramSeconds(histogram)
            }
            if category == "applicationLaunchMetrics", name == "histogrammedTimeToFirstDraw",
                let histogram = entries[index].histogram
            {
                addLaunch(histogram)
            }
        }
    }

    /// Keeps the buckets whose bounds are both times (seconds once normalised), merging equal bounds.
    mutating func addLaunch(_ histogram: MetricKitMetrics.Histogram) {
        for bucket in histogram.buckets where bucket.count > 0 {
            guard bucket.start?.normalizedUnit == "seconds", bucket.end?.normalizedUnit == "seconds",
                let start = bucket.start?.normalized, let end = bucket.end?.normalized,
                start.isFinite, end.isFinite, start >= 0, end >= start
            else { continue }
            if let index = launchBuckets.firstIndex(where: { $0.start == start && $0.end == end }) {
                launchBuckets[index].count = MetricKitFleet.sum(launchBuckets[index].count, bucket.count)
            } else if launchBuckets.count < Self.maxLaunchBuckets {
                launchBuckets.append(LaunchBucket(start: start, end: end, count: bucket.count))
            } else {
                launchSamplesLeftOut = MetricKitFleet.sum(launchSamplesLeftOut, bucket.count)
            }
        }
    }
}
