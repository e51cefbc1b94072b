/// The bounded state a summary read folds rows into (``PowerLogReader/readSummary(path:limits:)``): each row is
/// added as SQLite yields it and dropped, so memory depends on ``PowerLogSummaryLimits``, not on the row count.
struct PowerLogFold {
    let limits: PowerLogSummaryLimits
    var energy: EnergyFold
    var blm: EnergyFold
    var battery: BatteryFold
    var batteryUI: BatteryFold
    var screen: ScreenFold
    var exits: ExitFold
    var runTime: NamedTally<PowerLogReport.AppRunTime>
    var coalitions: NamedTally<PowerLogReport.Coalition>
    var location: NamedTally<PowerLogReport.Abridgement.BackgroundLocationApp>

    init(limits: PowerLogSummaryLimits, maxBatteryGap: Double) {
        self.limits = limits
        energy = EnergyFold(limits: limits)
        blm = EnergyFold(limits: limits)
        battery = BatteryFold(limits: limits, maxGap: maxBatteryGap)
        batteryUI = BatteryFold(limits: limits, maxGap: maxBatteryGap)
        screen = ScreenFold(limits: limits)
        exits = ExitFold(limits: limits)
        runTime = NamedTally(cap: limits.maxNames)
        coalitions = NamedTally(cap: limits.maxNames)
        location = NamedTally(cap: limits.maxNames)
    }

    mutating func add(_ row: BLMRow) {
        blm.add(row)
        if let energy = row.backgroundLocation, energy > 0 {
            addLocation(app: row.app, at: row.time, energy: energy, seconds: 0)
        }
    }

    mutating func add(_ row: RunTimeRow) {
        runTime.update(row.bundleID, make: .init(bundleID: row.bundleID)) { $0.add(row) }
        if row.backgroundLocation > 0 {
            addLocation(app: row.bundleID, at: row.time, energy: 0, seconds: row.backgroundLocation)
        }
    }

    private mutating func addLocation(app: String, at time: PowerLogTime, energy: Double, seconds: Double) {
        location.update(
            app,
            make: .init(app: app, buckets: 0, energy: 0, seconds: 0, first: time, last: time)
        ) { entry in
            entry.buckets += 1
            entry.energy += energy
            entry.seconds += seconds
            if time.raw < entry.first.raw { entry.first = time }
            if time.raw > entry.last.raw { entry.last = time }
        }
    }

    mutating func add(_ row: CoalitionRow) {
        coalitions.update(row.name, make: .init(name: row.name)) { $0.add(row) }
    }

    /// Fills the report's summaries from the folded state (the header fields come from the records); returns the
    /// bounds that were reached, each with the table it concerns.
    mutating func complete(
        _ report: inout PowerLogReport,
        appNames: [String: String],
        gauge: (cycleCount: Int64?, design: Int64?, max: Int64?)
    ) -> [(table: String, message: String)] {
        var notes: [(table: String, message: String)] = []
        let energyResult = energy.rows > 0 ? energy.finish() : blm.finish()
        if let (summary, apps, found) = energyResult {
            report.energy = summary
            report.apps = apps
            notes += found.map { (summary.source, $0) }
        }
        for index in report.apps.indices { report.apps[index].displayName = appNames[report.apps[index].name] }
        var abridged = PowerLogReport.Abridgement()
        abridged.backgroundLocationApps = Array(location.values.values)
        if let note = location.overflowNote("apps using location in the background", "are not listed") {
            notes.append((PowerLogExtractor.runTimeTable, note))
        }
        report.appRunTime = runTime.values.values.sorted {
            ($0.foregroundSeconds + $0.backgroundSeconds, $1.bundleID) > (
                $1.foregroundSeconds + $1.backgroundSeconds, $0.bundleID
            )
        }
        .map { app in
            var app = app
            app.displayName = appNames[app.bundleID]
            return app
        }
        if let note = runTime.overflowNote("apps", "are not listed") {
            notes.append((PowerLogExtractor.runTimeTable, note))
        }
        report.processExits = exits.finish()
        abridged.processExits = exits.count
        abridged.exitCategories = exits.categories
        report.coalitions = coalitions.values.values.sorted { ($0.cpuSeconds, $1.name) > ($1.cpuSeconds, $0.name) }
        if let note = coalitions.overflowNote("coalitions", "are not listed") {
            notes.append((PowerLogExtractor.coalitionTable, note))
        }
        report.screen = screen.finish(end: report.timeRange?.end)
        notes += screen.notes().map { (PowerLogExtractor.displayTable, $0) }
        // The detailed table when it has samples with a level, else the UI one (as the full analysis chooses).
        let battery =
            self.battery.finish(source: PowerLogExtractor.batteryTable, gauge: gauge)
            ?? batteryUI.finish(source: PowerLogExtractor.batteryUITable, gauge: gauge)
        if let (section, figures) = battery {
            report.battery = section
            abridged.batterySamples = figures.samples
            abridged.batteryLevel = figures.levels
            abridged.batteryTemperatureCelsius = figures.temperatures
            abridged.batteryVoltageMillivolts = figures.voltages
            abridged.batterySessions = figures.sessions
        }
        report.abridged = abridged
        return notes
    }
}
