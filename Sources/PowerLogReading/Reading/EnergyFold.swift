import APMInspectCore

/// Energy rows (`RootNodeEnergy`, or the iOS 8 `BLMAppEnergyBreakdown`) folded as they come, for a summary read.
///
/// The same sums as ``PowerLogAnalysis``, in the same order: hourly rows as they come, then the daily rows of days
/// no hourly row covers (held until the end: PowerLog keeps about 30, and a bound caps hostile tables).
struct EnergyFold {
    let limits: PowerLogSummaryLimits
    private(set) var consumers: NamedTally<PowerLogReport.AppEnergy>
    private(set) var buckets: EnergyBuckets
    private var componentTotals: [PowerLogComponent: Double] = [:]
    private var total = 0.0
    private var unrankedEnergy = 0.0
    private var dailyRoot: [EnergyRow] = []
    private var dailyBLM: [BLMRow] = []
    private var droppedDaily = 0
    private(set) var rows = 0
    private var isBLM = false

    init(limits: PowerLogSummaryLimits) {
        self.limits = limits
        consumers = NamedTally(cap: limits.maxNames)
        buckets = EnergyBuckets(limits: limits)
    }

    // MARK: - RootNodeEnergy

    mutating func add(_ row: EnergyRow) {
        rows += 1
        guard row.interval < 86_400 else {
            if dailyRoot.count < limits.maxDailyRows { dailyRoot.append(row) } else { droppedDaily += 1 }
            return
        }
        fold(row)
    }

    private mutating func fold(_ row: EnergyRow) {
        total += row.energy
        let component = PowerLogComponent(rootNodeName: row.root)
        componentTotals[component, default: 0] += row.energy
        let ranked = consumers.update(
            row.node,
            make: PowerLogReport.AppEnergy(consumer: row.node, isSystem: row.isSystemNode)
        ) { entry in
            entry.energy += row.energy
            entry.components[component.rawValue, default: 0] += row.energy
            entry.sources[row.root, default: 0] += row.energy
        }
        if !ranked { unrankedEnergy += row.energy }
        buckets.add(
            time: row.time,
            interval: row.interval,
            energy: row.energy,
            consumer: row.node,
            components: [(component.rawValue, row.energy)]
        )
    }

    // MARK: - BLMAppEnergyBreakdown

    mutating func add(_ row: BLMRow) {
        rows += 1
        isBLM = true
        guard row.interval < 86_400 else {
            if dailyBLM.count < limits.maxDailyRows { dailyBLM.append(row) } else { droppedDaily += 1 }
            return
        }
        fold(row)
    }

    private mutating func fold(_ row: BLMRow) {
        let componentSum = row.columns.filter { PowerLogComponent(blmColumn: $0.key) != nil }.values.reduce(0, +)
        let energy = row.total ?? componentSum
        total += energy
        var bucketComponents: [(String, Double)] = []
        let ranked = consumers.update(
            row.app,
            make: PowerLogReport.AppEnergy(consumer: row.app)
        ) { entry in
            entry.energy += energy
            for (column, value) in row.columns where value != 0 {
                entry.sources[column, default: 0] += value
                guard let component = PowerLogComponent(blmColumn: column) else { continue }
                entry.components[component.rawValue, default: 0] += value
            }
            if let value = row.backgroundCPU { entry.backgroundCPU = (entry.backgroundCPU ?? 0) + value }
            if let value = row.backgroundLocation { entry.backgroundLocation = (entry.backgroundLocation ?? 0) + value }
            entry.buckets += 1
        }
        if !ranked { unrankedEnergy += energy }
        for (column, value) in row.columns where value != 0 {
            guard let component = PowerLogComponent(blmColumn: column) else { continue }
            componentTotals[component, default: 0] += value
            bucketComponents.append((component.rawValue, value))
        }
        buckets.add(
            time: row.time,
            interval: row.interval,
            energy: energy,
            consumer: row.app,
            components: bucketComponents
        )
    }

    // MARK: - Result

    /// The summary and the ranking, as ``PowerLogAnalysis`` makes them; nil without rows.
    ///
    /// `notes` are the bounds that were reached.
    mutating func finish() -> (
        summary: PowerLogReport.EnergySummary, apps: [PowerLogReport.AppEnergy], notes: [String]
    )? {
        guard rows > 0 else { return nil }
        let spans = buckets.shortSpans()
        let hourly = spans.count
        var daily = Set<EnergyBuckets.Key>()
        for row in dailyRoot where !EnergyBuckets.overlaps(spans, start: row.time.raw, interval: row.interval) {
            daily.insert(EnergyBuckets.Key(raw: row.time.raw, interval: row.interval))
            fold(row)
        }
        for row in dailyBLM where !EnergyBuckets.overlaps(spans, start: row.time.raw, interval: row.interval) {
            daily.insert(EnergyBuckets.Key(raw: row.time.raw, interval: row.interval))
            fold(row)
        }
        let series = buckets.buckets()
        var apps = Array(consumers.values.values)
        if !isBLM {
            var countsPerConsumer: [String: Int] = [:]
            for bucket in series {
                for consumer in bucket.consumers { countsPerConsumer[consumer.name, default: 0] += 1 }
            }
            for index in apps.indices { apps[index].buckets = countsPerConsumer[apps[index].name] ?? 0 }
        }
        let componentTotal = isBLM ? componentTotals.values.reduce(0, +) : total
        let summary = PowerLogReport.EnergySummary(
            source: isBLM ? PowerLogExtractor.blmTable : PowerLogExtractor.rootNodeEnergyTable,
            unit: PowerLogAnalysis.unit,
            total: total,
            hourlyBuckets: hourly,
            dailyBucketsUsed: daily.count,
            components: PowerLogAnalysis.shares(componentTotals, total: componentTotal),
            buckets: series
        )
        var notes = buckets.notes()
        if let note = consumers.overflowNote("energy consumers") {
            notes.append(note + "; \(Int64(saturating: unrankedEnergy.rounded())) energy units are not ranked")
        }
        if droppedDaily > 0 {
            notes.append(
                "more than \(limits.maxDailyRows) daily energy rows: \(droppedDaily) were left out (a summary's "
                    + "bound; --format json reads every row)"
            )
        }
        return (summary, PowerLogAnalysis.rank(apps, total: total), notes)
    }
}
