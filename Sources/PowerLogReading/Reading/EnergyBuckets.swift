/// The energy time series of a summary read: one sum per bucket (a row's start and length), with its consumers and
/// components, under two bounds (``PowerLogSummaryLimits/maxBuckets`` and ``PowerLogSummaryLimits/maxBucketEntries``).
///
/// Sums are taken as rows come, in row order, as the full analysis takes them, so the figures are the same below
/// the bounds.
struct EnergyBuckets {
    struct Key: Hashable {
        var raw: Double
        var interval: Double
    }

    /// One bucket's sums, taken in row order: the full analysis keeps these too, so both sum in the same order.
    struct Sums {
        var time: PowerLogTime
        var total = 0.0
        var perConsumer: [String: Double] = [:]
        var perComponent: [String: Double] = [:]

        /// Adds one row's `energy` to the total and to `consumer`'s sum.
        mutating func add(consumer: String, energy: Double) {
            total += energy
            perConsumer[consumer, default: 0] += energy
        }

        /// Adds a row that is all of one component (a root node's).
        mutating func add(consumer: String, component: String, energy: Double) {
            add(consumer: consumer, energy: energy)
            perComponent[component, default: 0] += energy
        }
    }

    let maxBuckets: Int
    let maxEntries: Int
    private(set) var sums: [Key: Sums] = [:]
    private var entries = 0
    /// Rows whose bucket came after the bucket bound.
    private(set) var droppedRows = 0
    /// Consumer sums not kept for lack of room (their energy is in the bucket's total).
    private(set) var droppedEntries = 0

    init(limits: PowerLogSummaryLimits) {
        maxBuckets = max(1, limits.maxBuckets)
        maxEntries = max(1, limits.maxBucketEntries)
    }

    var count: Int { sums.count }

    func contains(_ key: Key) -> Bool { sums[key] != nil }

    /// Adds one row: `energy` to the bucket's total, `consumer` (when given) to its consumers, `components` to its
    /// components.
    mutating func add(
        time: PowerLogTime,
        interval: Double,
        energy: Double,
        consumer: String?,
        components: [(String, Double)]
    ) {
        let key = Key(raw: time.raw, interval: interval)
        if sums[key] == nil, sums.count >= maxBuckets {
            droppedRows += 1
            return
        }
        let room = entries < maxEntries
        var added = 0
        var dropped = 0
        mutate(key, time) { bucket in
            bucket.total += energy
            if let consumer {
                if bucket.perConsumer[consumer] != nil || room {
                    if bucket.perConsumer[consumer] == nil { added += 1 }
                    bucket.perConsumer[consumer, default: 0] += energy
                } else {
                    dropped += 1
                }
            }
            for (component, value) in components { bucket.perComponent[component, default: 0] += value }
        }
        entries += added
        droppedEntries += dropped
    }

    private mutating func mutate(_ key: Key, _ time: PowerLogTime, _ body: (inout Sums) -> Void) {
        body(&sums[key, default: Sums(time: time)])
    }

    /// The buckets in time order, consumers largest first (the full analysis's order).
    func buckets() -> [PowerLogReport.EnergySummary.Bucket] { Self.buckets(sums) }

    /// The report's buckets from their sums, in time order, consumers largest first.
    static func buckets(_ sums: [Key: Sums]) -> [PowerLogReport.EnergySummary.Bucket] {
        sums.sorted { ($0.key.raw, $0.key.interval) < ($1.key.raw, $1.key.interval) }.map { key, value in
            PowerLogReport.EnergySummary.Bucket(
                start: value.time,
                intervalSeconds: key.interval,
                total: value.total,
                consumers: value.perConsumer.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map {
                    .init(name: $0.key, energy: $0.value)
                },
                components: value.perComponent
            )
        }
    }

    /// Short buckets (under a day) sorted by start, to find the days they cover.
    func shortSpans() -> [Key] {
        sums.keys.filter { $0.interval < 86_400 }.sorted { ($0.raw, $0.interval) < ($1.raw, $1.interval) }
    }

    /// True when a span of `spans` (sorted by start, each shorter than a day) overlaps `start ..< start + interval`.
    static func overlaps(_ spans: [Key], start: Double, interval: Double) -> Bool {
        let end = start + interval
        // A span shorter than a day that overlaps starts after `start - 86400`: binary search to there.
        var low = 0
        var high = spans.count
        while low < high {
            let middle = low + (high - low) / 2
            if spans[middle].raw <= start - 86_400 { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < spans.count, spans[index].raw < end {
            if spans[index].raw + spans[index].interval > start { return true }
            index += 1
        }
        return false
    }

    /// Warnings' texts for the bounds that were reached.
    func notes() -> [String] {
        var out: [String] = []
        if droppedRows > 0 {
            out.append(
                "more than \(maxBuckets) energy buckets: \(droppedRows) rows of later buckets count in the totals "
                    + "but not in the time series (a summary's bound; --format json reads every row)"
            )
        }
        if droppedEntries > 0 {
            out.append(
                "more than \(maxEntries) consumer sums across the energy buckets: \(droppedEntries) were left out of "
                    + "the buckets' consumer lists (their energy is in the bucket totals)"
            )
        }
        return out
    }
}
