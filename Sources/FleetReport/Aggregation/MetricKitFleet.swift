/// Folds MetricKit figures (``FleetEvent/MetricKitFigures``) into the fleet view both `scan` and `report` show:
/// one piece of code, so the two agree.
///
/// Only tallies are kept: per app version and per device type (each at most ``maxGroups``), a few dozen exit
/// reasons and at most ``maxLaunchBuckets`` launch buckets over all of them, never the payloads, so memory does not
/// grow with their number.
package struct MetricKitFleet: Sendable, Equatable {
    struct Tally: Sendable, Equatable {
        var metricPayloads = 0
        var exits: [String: Int64] = [:]
        var diagnostics: [String: Int] = [:]
        var hangSeconds = 0.0
        var foregroundSeconds = 0.0
        var launch: [Bucket: Int64] = [:]
        var launchLeftOut: Int64 = 0

        /// `bucketBudget` is what is left of the fleet-wide bucket limit, shared by every tally.
        mutating func add(_ figures: FleetEvent.MetricKitFigures, bucketBudget: inout Int) {
            metricPayloads += figures.metricPayloads
            // One hash lookup a figure: three a reason, over three tallies, were a tenth of a scan's MetricKit cost.
            for (reason, count) in figures.exits {
                if let index = exits.index(forKey: reason) {
                    exits.values[index] = MetricKitFleet.sum(exits.values[index], count)
                } else if exits.count < MetricKitFleet.maxExitReasons {
                    exits[reason] = count
                }
            }
            for (kind, count) in figures.diagnostics where count > 0 {
                if let index = diagnostics.index(forKey: kind) {
                    let (value, overflow) = diagnostics.values[index].addingReportingOverflow(count)
                    diagnostics.values[index] = overflow ? Int.max : value
                } else if diagnostics.count < MetricKitFleet.maxExitReasons {
                    diagnostics[kind] = count
                }
            }
            hangSeconds += FleetEvent.finite(figures.hangSeconds)
            foregroundSeconds += FleetEvent.finite(figures.foregroundSeconds)
            launchLeftOut = MetricKitFleet.sum(launchLeftOut, figures.launchSamplesLeftOut)
            for bucket in figures.launchBuckets where bucket.count > 0 {
                let key = Bucket(start: bucket.start, end: bucket.end)
                if let index = launch.index(forKey: key) {
                    launch.values[index] = MetricKitFleet.sum(launch.values[index], bucket.count)
                    continue
                }
                guard launch.count < FleetEvent.MetricKitFigures.maxLaunchBuckets, bucketBudget > 0 else {
                    launchLeftOut = MetricKitFleet.sum(launchLeftOut, bucket.count)
                    continue
                }
                bucketBudget -= 1
                launch[key] = bucket.count
            }
        }
    }

    struct Bucket: Sendable, Hashable {
        var start: Double
        var end: Double
    }

    /// Distinct exit reasons (and diagnostic kinds) kept per tally; MetricKit defines about twenty.
    static let maxExitReasons = 64

    /// Versions and devices kept as rows.
    package let maxGroups: Int
    /// Distinct launch buckets kept over every tally together: with ``maxGroups`` rows of up to
    /// ``FleetEvent/MetricKitFigures/maxLaunchBuckets`` each, a per-row limit alone would allow tens of millions.
    package let maxLaunchBuckets: Int
    private var bucketBudget: Int
    private var total = Tally()
    private var versions: [String: Tally] = [:]
    private var devices: [String: Tally] = [:]
    private var ungroupedVersions = 0
    private var ungroupedDevices = 0

    package init(maxGroups: Int = 10_000, maxLaunchBuckets: Int = 300_000) {
        self.maxGroups = max(1, maxGroups)
        self.maxLaunchBuckets = max(0, maxLaunchBuckets)
        bucketBudget = self.maxLaunchBuckets
    }

    package mutating func add(_ figures: FleetEvent.MetricKitFigures) {
        total.add(figures, bucketBudget: &bucketBudget)
        if !Self.add(figures, to: &versions, key: figures.version, maxGroups: maxGroups, bucketBudget: &bucketBudget) {
            ungroupedVersions += 1
        }
        let device = figures.device ?? "?"
        if !Self.add(figures, to: &devices, key: device, maxGroups: maxGroups, bucketBudget: &bucketBudget) {
            ungroupedDevices += 1
        }
    }

    /// Adds to the row of `key`, made when there is room for it; false when there is none.
    ///
    /// The row is changed where it lies: a copy taken out of the dictionary shared its tables with the stored one,
    /// so every payload copied its row's tables whole.
    private static func add(
        _ figures: FleetEvent.MetricKitFigures,
        to rows: inout [String: Tally],
        key: String,
        maxGroups: Int,
        bucketBudget: inout Int
    ) -> Bool {
        if let index = rows.index(forKey: key) {
            rows.values[index].add(figures, bucketBudget: &bucketBudget)
            return true
        }
        guard rows.count < maxGroups else { return false }
        var tally = Tally()
        tally.add(figures, bucketBudget: &bucketBudget)
        rows[key] = tally
        return true
    }

    /// The view of everything added so far.
    package func summary() -> MetricKitFleetSummary {
        var summary = MetricKitFleetSummary()
        summary.metricPayloads = total.metricPayloads
        summary.diagnostics = total.diagnostics
        summary.exits = Self.exitRows(total.exits)
        let totals = Self.row("", total)
        summary.hangSeconds = totals.hangSeconds
        summary.foregroundSeconds = totals.foregroundSeconds
        summary.hangRate = totals.hangRate
        summary.launch = totals.launch
        summary.byVersion = versions.map { Self.row($0.key, $0.value) }
            .sorted { VersionOrder.precedes($1.name, $0.name) }
        summary.byDevice = devices.map { Self.row($0.key, $0.value) }.sorted {
            if $0.metricPayloads != $1.metricPayloads { return $0.metricPayloads > $1.metricPayloads }
            return $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
        }
        summary.ungroupedVersions = ungroupedVersions
        summary.ungroupedDevices = ungroupedDevices
        return summary
    }

    /// Exit reasons in the words MetricKit's documentation uses, in its order; the reader's names as keys.
    package static let exitReasons: [(reason: String, label: String)] = [
        ("normal", "normal"), ("abnormal", "abnormal"), ("watchdog", "watchdog"),
        ("memoryResourceLimit", "memory limit"), ("memoryPressure", "memory pressure"),
        ("suspendedWithLockedFile", "suspended with locked file"), ("cPUResourceLimit", "CPU limit"),
        ("badAccess", "bad access"), ("illegalInstruction", "illegal instruction"),
        ("backgroundTaskAssertionTimeout", "background task assertion timeout"),
    ]

    /// `foreground.x` and `background.x` side by side; known reasons first in MetricKit's order, others by name.
    static func exitRows(_ exits: [String: Int64]) -> [MetricKitFleetSummary.ExitRow] {
        var rows: [String: MetricKitFleetSummary.ExitRow] = [:]
        for (key, count) in exits {
            guard let dot = key.firstIndex(of: ".") else { continue }
            let state = key[..<dot]
            let reason = String(key[key.index(after: dot)...])
            guard state == "foreground" || state == "background" else { continue }
            var row =
                rows[reason]
                ?? MetricKitFleetSummary.ExitRow(
                    reason: reason,
                    label: exitReasons.first { $0.reason == reason }?.label ?? reason,
                    foreground: 0,
                    background: 0
                )
            if state == "foreground" {
                row.foreground = sum(row.foreground, count)
            } else {
                row.background = sum(row.background, count)
            }
            rows[reason] = row
        }
        let order = Dictionary(
            exitReasons.enumerated().map { ($1.reason, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        return rows.values.sorted {
            switch (order[$0.reason], order[$1.reason]) {
            case (let lhs?, let rhs?): return lhs < rhs
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return $0.reason.utf8.lexicographicallyPrecedes($1.reason.utf8)
            }
        }
    }

    static func row(_ name: String, _ tally: Tally) -> MetricKitFleetSummary.Row {
        let hours = tally.foregroundSeconds / 3600
        let rate = hours > 0 ? tally.hangSeconds / hours : nil
        return MetricKitFleetSummary.Row(
            name: name,
            metricPayloads: tally.metricPayloads,
            exits: tally.exits,
            diagnostics: tally.diagnostics,
            hangSeconds: FleetAggregator.rounded(tally.hangSeconds),
            foregroundSeconds: FleetAggregator.rounded(tally.foregroundSeconds),
            hangRate: rate.flatMap { $0.isFinite ? FleetAggregator.rounded($0) : nil },
            launch: launch(tally.launch, leftOut: tally.launchLeftOut)
        )
    }

    /// The distribution of merged buckets: p50 and p90 by linear interpolation inside the bucket holding the rank
    /// (buckets ordered by start, then end); nil without samples.
    static func launch(_ buckets: [Bucket: Int64], leftOut: Int64) -> MetricKitFleetSummary.Launch? {
        let sorted = buckets.filter { $0.value > 0 }.sorted {
            $0.key.start != $1.key.start ? $0.key.start < $1.key.start : $0.key.end < $1.key.end
        }
        let count = sorted.reduce(Int64(0)) { sum($0, $1.value) }
        guard count > 0 || leftOut > 0 else { return nil }
        func percentile(_ fraction: Double) -> Double? {
            let rank = fraction * Double(count)
            var seen = 0.0
            for (bucket, samples) in sorted {
                let weight = Double(samples)
                if seen + weight >= rank {
                    let value = bucket.start + (bucket.end - bucket.start) * ((rank - seen) / weight)
                    return value.isFinite ? FleetAggregator.rounded(value) : nil
                }
                seen += weight
            }
            return sorted.last.map { FleetAggregator.rounded($0.key.end) }
        }
        guard count > 0 else {
            return MetricKitFleetSummary.Launch(count: 0, p50Seconds: nil, p90Seconds: nil, samplesLeftOut: leftOut)
        }
        return MetricKitFleetSummary.Launch(
            count: count,
            p50Seconds: percentile(0.5),
            p90Seconds: percentile(0.9),
            samplesLeftOut: leftOut
        )
    }

    /// Adds counts without wrapping: a hostile payload's huge counts stop at the largest value.
    static func sum(_ lhs: Int64, _ rhs: Int64) -> Int64 {
        let (value, overflow) = lhs.addingReportingOverflow(rhs)
        if overflow { return rhs > 0 ? Int64.max : Int64.min }
        return value
    }
}
