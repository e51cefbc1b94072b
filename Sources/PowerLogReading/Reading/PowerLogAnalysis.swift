import APMInspectCore

/// Turns merged records into the report: rankings, shares, sessions and drain rates.
enum PowerLogAnalysis {
    static let unit = "PowerLog energy units"

    /// Builds the report from merged records, taking their rows out (the row lists of `records` are empty after).
    ///
    /// Each list is moved out of `records`, its keys dropped, then filtered and sorted in place: mapping, filtering
    /// and sorting into new arrays while the records were still alive held a dense database's battery samples in
    /// four copies at once.
    ///
    /// Rows are ordered by the raw clock, which only moves forward: wall-clock times can step back when PowerLog corrects its offset (the real iOS 15 sample has two battery rows 18 s apart whose wall
    /// times are in the opposite order).
    static func report(from records: inout PowerLogRecords, options: PowerLogReadOptions) -> PowerLogReport {
        var screenChanges = values(taking: &records.screen)
        screenChanges.sort { $0.at.raw < $1.at.raw }
        var timeOffsets = values(taking: &records.timeOffsets)
        timeOffsets.sort { $0.at.raw < $1.at.raw }
        var report = PowerLogReport(
            sources: records.sources,
            device: records.device,
            osBuild: records.osBuild,
            loggingMode: records.loggingMode,
            storageVersion: records.storageVersion,
            timeZone: records.timeZone,
            timeRange: both(records.rangeStart, records.rangeEnd).map { PowerLogReport.TimeRange(start: $0, end: $1) },
            timeOffsets: timeOffsets,
            tables: records.tables.sorted { $0.name < $1.name }
        )
        let blmRows = values(taking: &records.blm)
        if !records.energy.isEmpty {
            (report.energy, report.apps) = rootNodeEnergy(values(taking: &records.energy))
        } else if !blmRows.isEmpty {
            (report.energy, report.apps) = blmEnergy(blmRows)
        }
        for index in report.apps.indices { report.apps[index].displayName = records.appNames[report.apps[index].name] }
        let runTimeRows = values(taking: &records.runTime)
        report.backgroundLocation = backgroundLocation(blm: blmRows, runTime: runTimeRows)
        report.appRunTime = appRunTime(runTimeRows).map { app in
            var app = app
            app.displayName = records.appNames[app.bundleID]
            return app
        }
        var exits = values(taking: &records.exits)
        exits.sort { $0.at.raw < $1.at.raw }
        report.processExits = exits
        report.coalitions = coalitions(values(taking: &records.coalitions))
        if !screenChanges.isEmpty {
            report.screen = screen(screenChanges, end: report.timeRange?.end)
        }
        report.battery = records.streamedBattery ?? battery(&records, screen: screenChanges, options: options)
        return report
    }

    /// The records of a list, left empty in its place, their keys freed: the caller holds the only reference to
    /// them and frees them when done.
    private static func values<Value>(taking rows: inout KeyedRows<Value>) -> [Value] {
        var taken = KeyedRows<Value>()
        swap(&taken, &rows)
        return taken.takeValues()
    }

    /// The report and its diagnostics, with a summary read's folded rows filled in and the bounds it reached as
    /// warnings.
    static func result(from records: consuming PowerLogRecords, options: PowerLogReadOptions) -> PowerLogReadResult {
        var report = report(from: &records, options: options)
        var diagnostics = records.diagnostics
        if var fold = records.fold {
            let name = records.sources.first.map { $0.path.split(separator: "/").last.map(String.init) ?? $0.path }
            for note in fold.complete(&report, appNames: records.appNames, gauge: records.gauge) {
                let message = name.map { "\($0): \(note.message)" } ?? note.message
                diagnostics.append(
                    Diagnostic(.warning, .powerlogSummaryBound, message, at: SourceLocation(keyPath: note.table))
                )
            }
        }
        return PowerLogReadResult(report: report, diagnostics: diagnostics)
    }

    private static func both<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
        guard let a, let b else { return nil }
        return (a, b)
    }

    // MARK: - Energy

    private typealias BucketKey = EnergyBuckets.Key

    /// Which rows count: every hourly bucket, and daily buckets only for days no hourly bucket covers (PowerLog
    /// keeps hourly rows 14 days and daily rows 30, and a daily row repeats the hours of its day).
    private static func countedRows<Row>(_ rows: [Row], time: (Row) -> PowerLogTime, interval: (Row) -> Double)
        -> (rows: [Row], hourly: Int, daily: Int)
    {
        // The usual case (no daily rows) keeps the caller's array: a filtered copy of every row cost as much again.
        let allShort = rows.allSatisfy { interval($0) < 86_400 }
        let short = allShort ? rows : rows.filter { interval($0) < 86_400 }
        var shortSpans = Set<BucketKey>()
        for row in short { shortSpans.insert(BucketKey(raw: time(row).raw, interval: interval(row))) }
        if allShort { return (short, shortSpans.count, 0) }
        let long = rows.filter { row in
            guard interval(row) >= 86_400 else { return false }
            let start = time(row).raw
            let end = start + interval(row)
            return !shortSpans.contains { $0.raw < end && $0.raw + $0.interval > start }
        }
        let longSpans = Set(long.map { BucketKey(raw: time($0).raw, interval: interval($0)) })
        return (long.isEmpty ? short : short + long, shortSpans.count, longSpans.count)
    }

    private static func rootNodeEnergy(_ rows: [EnergyRow]) -> (
        PowerLogReport.EnergySummary, [PowerLogReport.AppEnergy]
    ) {
        let counted = countedRows(rows, time: \.time, interval: \.interval)
        var consumers: [String: PowerLogReport.AppEnergy] = [:]
        var componentTotals: [PowerLogComponent: Double] = [:]
        // Summed as rows come: grouping the rows themselves per bucket held every row a second time.
        var bucketSums: [BucketKey: EnergyBuckets.Sums] = [:]
        var total = 0.0
        for row in counted.rows {
            total += row.energy
            let component = PowerLogComponent(rootNodeName: row.root)
            componentTotals[component, default: 0] += row.energy
            var entry =
                consumers[row.node]
                ?? PowerLogReport.AppEnergy(consumer: row.node, isSystem: row.isSystemNode)
            entry.energy += row.energy
            entry.components[component.rawValue, default: 0] += row.energy
            entry.sources[row.root, default: 0] += row.energy
            consumers[row.node] = entry
            let bucket = BucketKey(raw: row.time.raw, interval: row.interval)
            bucketSums[bucket, default: .init(time: row.time)].add(
                consumer: row.node,
                component: component.rawValue,
                energy: row.energy
            )
        }
        let buckets = EnergyBuckets.buckets(bucketSums)
        var countsPerConsumer: [String: Int] = [:]
        for bucket in buckets { for consumer in bucket.consumers { countsPerConsumer[consumer.name, default: 0] += 1 } }
        let apps = rank(
            consumers.values.map { app in
                var app = app
                app.buckets = countsPerConsumer[app.name] ?? 0
                return app
            },
            total: total
        )
        let summary = PowerLogReport.EnergySummary(
            source: PowerLogExtractor.rootNodeEnergyTable,
            unit: unit,
            total: total,
            hourlyBuckets: counted.hourly,
            dailyBucketsUsed: counted.daily,
            components: shares(componentTotals, total: total),
            buckets: buckets
        )
        return (summary, apps)
    }

    private static func blmEnergy(_ rows: [BLMRow]) -> (PowerLogReport.EnergySummary, [PowerLogReport.AppEnergy]) {
        let counted = countedRows(rows, time: \.time, interval: \.interval)
        var consumers: [String: PowerLogReport.AppEnergy] = [:]
        var componentTotals: [PowerLogComponent: Double] = [:]
        var bucketSums: [BucketKey: EnergyBuckets.Sums] = [:]
        var total = 0.0
        for row in counted.rows {
            let componentSum = row.columns.filter { PowerLogComponent(blmColumn: $0.key) != nil }.values.reduce(0, +)
            // BLMEnergy is the app's total; the component columns are its parts (used when the total is missing).
            let energy = row.total ?? componentSum
            total += energy
            var entry =
                consumers[row.app]
                ?? PowerLogReport.AppEnergy(consumer: row.app)
            entry.energy += energy
            let bucket = BucketKey(raw: row.time.raw, interval: row.interval)
            // Zero columns are the norm (an app uses a few components), and listing them says nothing.
            for (column, value) in row.columns where value != 0 {
                entry.sources[column, default: 0] += value
                guard let component = PowerLogComponent(blmColumn: column) else { continue }
                entry.components[component.rawValue, default: 0] += value
                componentTotals[component, default: 0] += value
                bucketSums[bucket, default: .init(time: row.time)].perComponent[component.rawValue, default: 0] += value
            }
            if let value = row.backgroundCPU { entry.backgroundCPU = (entry.backgroundCPU ?? 0) + value }
            if let value = row.backgroundLocation { entry.backgroundLocation = (entry.backgroundLocation ?? 0) + value }
            entry.buckets += 1
            consumers[row.app] = entry
            bucketSums[bucket, default: .init(time: row.time)].add(consumer: row.app, energy: energy)
        }
        let buckets = EnergyBuckets.buckets(bucketSums)
        let summary = PowerLogReport.EnergySummary(
            source: PowerLogExtractor.blmTable,
            unit: unit,
            total: total,
            hourlyBuckets: counted.hourly,
            dailyBucketsUsed: counted.daily,
            components: shares(componentTotals, total: componentTotals.values.reduce(0, +)),
            buckets: buckets
        )
        return (summary, rank(Array(consumers.values), total: total))
    }

    static func rank(_ apps: [PowerLogReport.AppEnergy], total: Double) -> [PowerLogReport.AppEnergy] {
        apps.map { app in
            var app = app
            app.share = total > 0 ? app.energy / total : 0
            return app
        }
        .sorted { ($0.energy, $1.name) > ($1.energy, $0.name) }
    }

    static func shares(_ totals: [PowerLogComponent: Double], total: Double)
        -> [PowerLogReport.EnergySummary.ComponentShare]
    {
        totals.map { .init(component: $0.key, energy: $0.value, share: total > 0 ? $0.value / total : 0) }
            .sorted { ($0.energy, $1.component) > ($1.energy, $0.component) }
    }

    private static func backgroundLocation(blm: [BLMRow], runTime: [RunTimeRow])
        -> [PowerLogReport.BackgroundLocationUse]
    {
        var uses: [PowerLogReport.BackgroundLocationUse] = []
        for row in blm {
            guard let energy = row.backgroundLocation, energy > 0 else { continue }
            uses.append(
                .init(
                    app: row.app,
                    start: row.time,
                    intervalSeconds: row.interval,
                    energy: energy,
                    seconds: nil,
                    source: PowerLogExtractor.blmTable
                )
            )
        }
        for row in runTime where row.backgroundLocation > 0 {
            uses.append(
                .init(
                    app: row.bundleID,
                    start: row.time,
                    intervalSeconds: row.interval,
                    energy: nil,
                    seconds: row.backgroundLocation,
                    source: PowerLogExtractor.runTimeTable
                )
            )
        }
        return uses.sorted { ($0.start.raw, $0.app) < ($1.start.raw, $1.app) }
    }

    // MARK: - Apps, coalitions, screen

    private static func appRunTime(_ rows: [RunTimeRow]) -> [PowerLogReport.AppRunTime] {
        var apps: [String: PowerLogReport.AppRunTime] = [:]
        for row in rows {
            apps[row.bundleID, default: .init(bundleID: row.bundleID)].add(row)
        }
        return apps.values.sorted {
            ($0.foregroundSeconds + $0.backgroundSeconds, $1.bundleID) > (
                $1.foregroundSeconds + $1.backgroundSeconds, $0.bundleID
            )
        }
    }

    private static func coalitions(_ rows: [CoalitionRow]) -> [PowerLogReport.Coalition] {
        var byName: [String: PowerLogReport.Coalition] = [:]
        for row in rows { byName[row.name, default: .init(name: row.name)].add(row) }
        return byName.values.sorted { ($0.cpuSeconds, $1.name) > ($1.cpuSeconds, $0.name) }
    }

    private static func screen(_ changes: [PowerLogReport.Screen.Change], end: PowerLogTime?) -> PowerLogReport.Screen {
        var on = 0.0
        var off = 0.0
        for (index, change) in changes.enumerated() {
            let next = index + 1 < changes.count ? changes[index + 1].at.utcSeconds : end?.utcSeconds
            guard let next, next > change.at.utcSeconds else { continue }
            if change.isOn { on += next - change.at.utcSeconds } else { off += next - change.at.utcSeconds }
        }
        return .init(source: PowerLogExtractor.displayTable, changes: changes, onSeconds: on, offSeconds: off)
    }

    // MARK: - Battery

    /// The battery summary, from the detailed table's samples with a level, or the BatteryUI table's when there are
    /// none (both lists are taken out of `records`).
    private static func battery(
        _ records: inout PowerLogRecords,
        screen: [PowerLogReport.Screen.Change],
        options: PowerLogReadOptions
    ) -> PowerLogReport.Battery? {
        var samples = values(taking: &records.battery)
        samples.removeAll { $0.level == nil && $0.rawLevel == nil }
        let detailed = !samples.isEmpty
        if detailed {
            records.batteryUI = KeyedRows()
        } else {
            samples = values(taking: &records.batteryUI)
            samples.removeAll { $0.bestLevel == nil }
        }
        // Sorted in place (the same stable sort `sorted` does).
        samples.sort { $0.at.raw < $1.at.raw }
        guard !samples.isEmpty else { return nil }
        let source = detailed ? PowerLogExtractor.batteryTable : PowerLogExtractor.batteryUITable
        return PowerLogReport.Battery(
            source: source,
            samples: samples,
            sessions: sessions(samples, maxGap: options.maxBatteryGapSeconds),
            drain: drain(samples, screen: screen, maxGap: options.maxBatteryGapSeconds),
            cycleCount: records.gauge.cycleCount,
            designCapacityMAh: records.gauge.design,
            maxCapacityMAh: records.gauge.max
        )
    }

    private static func sessions(_ samples: [PowerLogReport.Battery.Sample], maxGap: Double)
        -> [PowerLogReport.Battery.Session]
    {
        typealias Session = PowerLogReport.Battery.Session
        var sessions: [Session] = []
        // Counted first, by the test below: a list grown by doubling held half as much again while it was copied,
        // the peak of a JSON read when every sample starts a session.
        var starts = 0
        for (index, sample) in samples.enumerated() {
            let gap = index > 0 ? sample.at.utcSeconds - samples[index - 1].at.utcSeconds : 0
            if index == 0 || Session.Kind(of: samples[index - 1]) != Session.Kind(of: sample) || !(gap <= maxGap) {
                starts += 1
            }
        }
        sessions.reserveCapacity(starts)
        var current: Session?
        var previous: PowerLogReport.Battery.Sample?
        for sample in samples {
            if let ended = Session.advance(&current, previous: previous, with: sample, maxGap: maxGap) {
                sessions.append(ended)
            }
            previous = sample
        }
        if let session = current { sessions.append(session) }
        return sessions
    }

    /// Level drop between consecutive samples off the charger, each interval billed to the screen state at its
    /// start (samples come every 20 s to 10 min, far finer than screen sessions).
    private static func drain(
        _ samples: [PowerLogReport.Battery.Sample],
        screen: [PowerLogReport.Screen.Change],
        maxGap: Double
    ) -> PowerLogReport.Battery.Drain {
        let transitions = screen.map { ScreenFold.Transition(raw: $0.at.raw, isOn: $0.isOn) }
        var tally = DrainTally()
        for (a, b) in zip(samples, samples.dropFirst()) { tally.add(a, b, maxGap: maxGap, screen: transitions) }
        return tally.drain
    }
}
