import APMInspectCore
import MetricKitParsing

extension FleetEvent.MetricKitFigures {
    /// Distinct launch-histogram buckets kept per entry: payloads of one OS share their bucket bounds, so this
    /// is far more than a real file needs; a hostile payload with thousands of odd bounds keeps only these (the
    /// samples of the rest are counted in ``launchSamplesLeftOut``).
    public static let maxLaunchBuckets = 1024

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
        for entry in metrics.entries {
            if entry.category == "applicationTimeMetrics", entry.name == "cumulativeForegroundTime" {
                foregroundSeconds += FleetEvent.finite(entry.measurement?.normalized)
            }
            if entry.category == "applicationResponsivenessMetrics",
                entry.name == "histogrammedApplicationHangTime", let histogram = entry.histogram
            {
                hangSeconds += FleetEvent.histogramSeconds(histogram)
            }
            if entry.category == "applicationLaunchMetrics", entry.name == "histogrammedTimeToFirstDraw",
                let histogram = entry.histogram
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
