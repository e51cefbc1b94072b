import APMInspectCore
import GRDB

/// Reads the tables of one open database into records, with both clocks on every time.
///
/// Each family is optional: a missing table or column yields nothing (or a note), never a failure, and a table
/// SQLite cannot read becomes a warning while the rest is still read.
struct PowerLogExtractor {
    let database: PowerLogDatabase
    let path: String
    let options: PowerLogReadOptions
    private(set) var clock = PowerLogClock(offsets: [], zones: [])
    private(set) var records = PowerLogRecords()
    /// Set for a summary read: rows are folded into it instead of kept (see ``PowerLogFold``).
    private var fold: PowerLogFold?
    /// Set for a streamed read: battery samples and sessions are encoded into it instead of kept.
    private let batterySpool: PowerLogBatterySpool?
    /// A streamed read's screen findings, held until the point the full read says them.
    private var screenDiagnostics: [Diagnostic] = []

    static let timeOffsetTable = "PLStorageOperator_EventForward_TimeOffset"
    static let rootNodeEnergyTable = "PLAccountingOperator_Aggregate_RootNodeEnergy"
    static let nodesTable = "PLAccountingOperator_EventNone_Nodes"
    static let blmTable = "PLBLMAccountingService_Aggregate_BLMAppEnergyBreakdown"
    static let batteryTable = "PLBatteryAgent_EventBackward_Battery"
    static let batteryUITable = "PLBatteryAgent_EventBackward_BatteryUI"
    static let runTimeTable = "PLAppTimeService_Aggregate_AppRunTime"
    static let exitTable = "PLProcessMonitorAgent_EventPoint_ProcessExit"
    static let coalitionTable = "PLCoalitionAgent_EventInterval_CoalitionInterval"
    static let displayTable = "PLDisplayAgent_EventPoint_Display"

    init(
        database: PowerLogDatabase,
        path: String,
        options: PowerLogReadOptions,
        summary: PowerLogSummaryLimits? = nil,
        batterySpool: PowerLogBatterySpool? = nil
    ) {
        self.database = database
        self.path = path
        self.options = options
        fold = summary.map { PowerLogFold(limits: $0, maxBatteryGap: options.maxBatteryGapSeconds) }
        self.batterySpool = summary == nil ? batterySpool : nil
    }

    /// Reads every family this version knows.
    mutating func extract() -> PowerLogRecords {
        readClock()
        readCensus()
        readConfiguration()
        readEnergy()
        readBLM()
        if fold != nil {
            // Drain is billed to the screen state as the samples come: the screen's transitions must be known first.
            readScreen()
            readBatterySummary()
        } else if batterySpool != nil {
            // Drain is tallied as the samples come, so the screen is read first; what it says keeps its place
            // among the diagnostics (after the exits and coalitions), as in the full read.
            let mark = records.diagnostics.count
            readScreen()
            screenDiagnostics = Array(records.diagnostics[mark...])
            records.diagnostics.removeSubrange(mark...)
            readBatteryStreamed()
        } else {
            readBattery()
        }
        readRunTime()
        readAppNames()
        readExits()
        readCoalitions()
        if fold == nil, batterySpool == nil { readScreen() }
        records.diagnostics += screenDiagnostics
        records.fold = fold
        return records
    }

    // MARK: - Helpers

    private mutating func fetch(_ table: PowerLogDatabase.TableSchema, _ columns: [String]) -> TableRows? {
        do {
            let rows = try database.rows(of: table, columns: columns, limit: options.maxRowsPerTable)
            if rows.truncated {
                warn(
                    .powerlogRowLimit,
                    "only the first \(options.maxRowsPerTable) rows were read (the row limit)",
                    table.name
                )
            }
            return rows
        } catch {
            // A damaged table is reported once, by the census.
            guard database.damagedTables[table.name] == nil else { return nil }
            records.diagnostics.append(
                Diagnostic(
                    .warning,
                    .input(error.code),
                    "\(fileName): \(error.message)",
                    at: SourceLocation(keyPath: table.name)
                )
            )
            return nil
        }
    }

    /// Streams the rows of a large table to `body` (see ``PowerLogDatabase/forEachRow(of:columns:limit:_:)``).
    private func stream(
        _ table: PowerLogDatabase.TableSchema,
        _ columns: [String],
        orderedByTime: Bool = false,
        _ body: ([DatabaseValue]) -> Void
    ) -> Result<Bool, PowerLogError> {
        do {
            return .success(
                try database.forEachRow(
                    of: table,
                    columns: columns,
                    limit: options.maxRowsPerTable,
                    orderedByTime: orderedByTime,
                    body
                )
            )
        } catch {
            return .failure(error)
        }
    }

    /// Records what a ``stream(_:_:_:)`` ended with: a warning when the row limit cut the table or SQLite failed
    /// part-way (the rows read before the failure are kept).
    private mutating func note(_ outcome: Result<Bool, PowerLogError>, _ table: PowerLogDatabase.TableSchema) {
        switch outcome {
        case .success(true):
            warn(
                .powerlogRowLimit,
                "only the first \(options.maxRowsPerTable) rows were read (the row limit)",
                table.name
            )
        case .success(false): break
        case .failure(let error):
            guard database.damagedTables[table.name] == nil else { return }
            records.diagnostics.append(
                Diagnostic(
                    .warning,
                    .input(error.code),
                    "\(fileName): \(error.message)",
                    at: SourceLocation(keyPath: table.name)
                )
            )
        }
    }

    /// The rows the census counted in `table`, up to the row limit: arrays sized once instead of doubling, which
    /// held the old and the new buffer at once.
    private func expectedRows(_ table: PowerLogDatabase.TableSchema) -> Int {
        // A summary keeps no rows: nothing to reserve.
        guard fold == nil else { return 0 }
        let counted = records.tables.first { $0.name == table.name }?.rows ?? 0
        return Int(clamping: max(0, min(counted, Int64(clamping: options.maxRowsPerTable))))
    }

    /// Appends `rows` to `target`, handing the buffer over when `target` is empty (the usual case) rather than
    /// copying every row into it while the original is still alive.
    private static func move<Value>(_ rows: KeyedRows<Value>, into target: inout KeyedRows<Value>) {
        if target.isEmpty { target = rows } else { target.append(contentsOf: rows) }
    }

    /// The one loop every row-per-record reader shares.
    ///
    /// Streams `table`'s rows through `make`: with a summary each value goes to the fold (`fold`), else it is kept
    /// in `target`, keyed by the content `make` returns with it (the row itself, or the values it stands for).
    /// `make` returns nil for a row that says nothing.
    private mutating func collect<Value>(
        _ table: PowerLogDatabase.TableSchema,
        _ wanted: [String],
        into target: WritableKeyPath<PowerLogRecords, KeyedRows<Value>>,
        fold add: (inout PowerLogFold?, Value) -> Void,
        make: ([DatabaseValue]) -> (value: Value, content: [DatabaseValue])?
    ) {
        var out = KeyedRows<Value>()
        out.reserveCapacity(expectedRows(table))
        let tableName = table.name
        var fold = self.fold
        self.fold = nil
        defer { self.fold = fold }
        let outcome = stream(table, wanted) { row in
            guard let (value, content) = make(row) else { return }
            if fold != nil {
                add(&fold, value)
                return
            }
            out.append(key: ContentKey(table: tableName, values: content), value: value)
        }
        Self.move(out, into: &records[keyPath: target])
        note(outcome, table)
    }

    private mutating func warn(
        _ code: Diagnostic.Code,
        _ message: String,
        _ table: String,
        _ severity: Diagnostic.Severity = .warning
    ) {
        records.diagnostics.append(
            Diagnostic(severity, code, "\(fileName): \(message)", at: SourceLocation(keyPath: table))
        )
    }

    private var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }

    private func key(_ table: String, _ row: [DatabaseValue]) -> ContentKey { ContentKey(table: table, values: row) }

    // MARK: - Clock, census, configuration

    private mutating func readClock() {
        var offsets: [PowerLogClock.Offset] = []
        let offsetTable =
            database.table(Self.timeOffsetTable)
            ?? database.tables.first { $0.name.lowercased().contains("timeoffset") && $0.column("system") != nil }
        if let table = offsetTable, let rows = fetch(table, ["timestamp", "system"]) {
            var skipped = 0
            for row in rows.rows {
                guard let raw = row.double(0), let system = row.double(1) else {
                    skipped += 1
                    continue
                }
                offsets.append(PowerLogClock.Offset(raw: raw, system: system))
            }
            if skipped > 0 {
                warn(
                    .powerlogRowsSkipped,
                    "\(skipped) time-offset rows without a timestamp or offset were skipped",
                    table.name
                )
            }
        }
        if offsets.isEmpty {
            warn(
                .powerlogNoTimeOffsets,
                "no time offsets: wall-clock times are PowerLog's raw clock, which can be minutes to years off",
                Self.timeOffsetTable
            )
        }
        var zones: [PowerLogClock.Zone] = []
        if let table = database.table("PLLocaleAgent_EventForward_TimeZone"),
            let rows = fetch(table, ["timestamp", "TimeZoneName", "SecondsFromGMT"])
        {
            for row in rows.rows {
                guard let raw = row.double(0) else { continue }
                let seconds = row.int64(2).flatMap { (-18 * 3600...18 * 3600).contains($0) ? Int($0) : nil }
                zones.append(PowerLogClock.Zone(raw: raw, name: row.string(1), secondsFromGMT: seconds))
            }
        }
        clock = PowerLogClock(offsets: offsets, zones: zones)
        records.timeZone = clock.latestZoneName
        var offsetRows = KeyedRows<PowerLogReport.TimeOffset>()
        for offset in clock.offsets {
            offsetRows.append(
                key: key(Self.timeOffsetTable, [offset.raw.databaseValue, offset.system.databaseValue]),
                value: PowerLogReport.TimeOffset(at: clock.time(offset.raw), systemSeconds: offset.system)
            )
        }
        records.timeOffsets = offsetRows
    }

    private mutating func readCensus() {
        var first: Double?
        var last: Double?
        for table in database.tables {
            let entryType = Self.entryType(of: table.name)
            if let problem = database.damagedTables[table.name] {
                warn(
                    .powerlogDamagedTable,
                    "the table is damaged (SQLite's \(problem) fails on it); its rows are not read",
                    table.name
                )
                records.tables.append(PowerLogReport.Table(name: table.name, entryType: entryType, rows: 0))
                continue
            }
            guard let census = database.census(of: table) else {
                warn(.powerlogUncountableTable, "the table cannot be counted", table.name)
                records.tables.append(PowerLogReport.Table(name: table.name, entryType: entryType, rows: 0))
                continue
            }
            records.tables.append(PowerLogReport.Table(name: table.name, entryType: entryType, rows: census.rows))
            // Dictionary and state tables carry rows from long before the history (set-up, carried-over states);
            // periodic snapshots, point events and buckets of up to an hour say when the log ran.
            let counts: Bool
            switch entryType {
            case "EventBackward", "EventPoint": counts = true
            case "Aggregate": counts = (census.longestInterval ?? 0) <= 3600
            default: counts = false
            }
            guard counts, census.rows > 0, let low = census.first, let high = census.last else { continue }
            first = min(first ?? low, low)
            last = max(last ?? high, high)
        }
        if let first, let last {
            records.rangeStart = clock.time(first)
            records.rangeEnd = clock.time(last)
        }
    }

    /// `EventForward` from `PLBatteryAgent_EventForward_Foo`; nil outside the naming scheme.
    static func entryType(of name: String) -> String? {
        let known = ["EventForward", "EventBackward", "EventPoint", "EventInterval", "EventNone", "Aggregate"]
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
            // Splitting by Character keeps "_" with a combining mark after it whole: only ASCII names may take
            // the byte path below.
            let parts = name.split(separator: "_")
            guard parts.count >= 3 else { return nil }
            let type = String(parts[1])
            return known.contains(type) ? type : nil
        }
        // The second of at least three non-empty "_"-separated parts, found on the bytes: splitting by Character
        // cost some 19,000 instructions per name, a thirteenth of `energy`, over the few hundred tables of a log.
        var parts = 0
        var second: Substring.UTF8View?
        for part in name.utf8.split(separator: UInt8(ascii: "_")) {
            parts += 1
            if parts == 2 { second = part }
            if parts == 3 { break }
        }
        guard parts >= 3, let second else { return nil }
        return known.first { $0.utf8.elementsEqual(second) }
    }

    private mutating func readConfiguration() {
        if let table = database.table("PLConfigAgent_EventNone_Config"),
            let rows = fetch(table, ["timestamp", "Device", "Build"])
        {
            let sorted = rows.rows.sorted { ($0.double(0) ?? 0) < ($1.double(0) ?? 0) }
            records.device = sorted.last { $0.string(1)?.isEmpty == false }?.string(1)
            records.osBuild = sorted.last { $0.string(2)?.isEmpty == false }?.string(2)
        }
        if let table = database.table("PLStorageOperator_EventForward_Configuration"),
            let rows = fetch(table, ["timestamp", "Mode", "Version"])
        {
            let sorted = rows.rows.sorted { ($0.double(0) ?? 0) < ($1.double(0) ?? 0) }
            records.loggingMode = sorted.last { $0.string(1)?.isEmpty == false }?.string(1)
            records.storageVersion = sorted.last { $0.string(2)?.isEmpty == false }?.string(2)
        }
    }

    // MARK: - Energy

    private mutating func readEnergy() {
        guard let table = database.table(Self.rootNodeEnergyTable) else { return }
        var names: [Int64: (name: String, permanent: Bool)] = [:]
        if let nodes = database.table(Self.nodesTable), let rows = fetch(nodes, ["ID", "Name", "IsPermanent"]) {
            for row in rows.rows {
                guard let id = row.int64(0), let name = row.string(1) else { continue }
                names[id] = (name, row.bool(2) ?? false)
            }
        } else {
            warn(.powerlogNoNodeNames, "no node names: consumers are shown by node ID", Self.nodesTable)
        }
        var skipped = 0
        let clock = self.clock
        collect(
            table,
            ["timestamp", "timeInterval", "Energy", "NodeID", "RootNodeID"],
            into: \.energy,
            fold: { $0?.energy.add($1) },
            make: { row in
                guard let raw = row.double(0), let energy = row.double(2), let nodeID = row.int64(3) else {
                    skipped += 1
                    return nil
                }
                let rootID = row.int64(4)
                let node = names[nodeID]?.name ?? "node \(nodeID)"
                let root = rootID.map { names[$0]?.name ?? "node \($0)" } ?? "unknown"
                // Permanent nodes up to RootNodeMaxCount (10000) are hardware; a node billed to itself is not an app.
                let isSystem = nodeID == rootID || (nodeID <= 10_000 && names[nodeID]?.permanent != false)
                let interval = row.double(1) ?? 3600
                let value = EnergyRow(
                    time: clock.time(raw),
                    interval: interval,
                    node: node,
                    root: root,
                    energy: energy,
                    isSystemNode: isSystem
                )
                // Keyed by what the row stands for (node and root by name), not by IDs that differ between devices.
                let content: [DatabaseValue] = [
                    raw.databaseValue, interval.databaseValue, energy.databaseValue, node.databaseValue,
                    root.databaseValue,
                ]
                return (value, content)
            }
        )
        if skipped > 0 {
            warn(.powerlogRowsSkipped, "\(skipped) rows without a timestamp, energy or node were skipped", table.name)
        }
    }

    private mutating func readBLM() {
        guard let table = database.table(Self.blmTable) else { return }
        let energyColumns = table.columns.filter { column in
            let lower = column.lowercased()
            return lower.hasPrefix("blmenergy") && lower != "blmenergy"
        }
        let wanted = ["timestamp", "timeInterval", "BLMAppName", "BLMEnergy"] + energyColumns
        var skipped = 0
        let clock = self.clock
        collect(
            table,
            wanted,
            into: \.blm,
            fold: { $0?.add($1) },
            make: { row in
                guard let raw = row.double(0), let app = row.string(2) else {
                    skipped += 1
                    return nil
                }
                var columns: [String: Double] = [:]
                var backgroundCPU: Double?
                var backgroundLocation: Double?
                for (offset, column) in energyColumns.enumerated() {
                    guard let value = row.double(4 + offset) else { continue }
                    switch column.lowercased() {
                    case "blmenergy_backgroundcpu": backgroundCPU = value
                    case "blmenergy_backgroundlocation": backgroundLocation = value
                    default: columns[column] = value
                    }
                }
                let value = BLMRow(
                    time: clock.time(raw),
                    interval: row.double(1) ?? 3600,
                    app: app,
                    total: row.double(3),
                    columns: columns,
                    backgroundCPU: backgroundCPU,
                    backgroundLocation: backgroundLocation
                )
                return (value, row)
            }
        )
        if skipped > 0 {
            warn(.powerlogRowsSkipped, "\(skipped) rows without a timestamp or app name were skipped", table.name)
        }
    }

    // MARK: - Battery

    /// The `Battery` table's columns, in the order ``batterySample(_:_:gauge:)`` reads them.
    static let batteryColumns = [
        "timestamp", "Level", "RawLevel", "Voltage", "InstantAmperage", "Temperature", "IsCharging",
        "ExternalConnected", "CycleCount", "DesignCapacity", "AppleRawMaxCapacity",
    ]

    /// One `Battery` row as a sample (nil without a time), with the gauge figures it carries folded into `gauge`
    /// (the last stated value wins; a capacity of zero states nothing).
    private static func batterySample(
        _ row: [DatabaseValue],
        _ clock: PowerLogClock,
        gauge: inout (cycleCount: Int64?, design: Int64?, max: Int64?)
    ) -> PowerLogReport.Battery.Sample? {
        guard let raw = row.double(0) else { return nil }
        var temperature = row.double(5)
        // Some builds write centi-degrees in this column.
        if let value = temperature, abs(value) > 150 { temperature = value / 100 }
        if let cycles = row.int64(8) { gauge.cycleCount = cycles }
        if let design = row.int64(9), design > 0 { gauge.design = design }
        if let maximum = row.int64(10), maximum > 0 { gauge.max = maximum }
        return PowerLogReport.Battery.Sample(
            at: clock.time(raw),
            level: row.double(1),
            rawLevel: row.double(2),
            voltageMillivolts: row.double(3),
            currentMilliamps: row.double(4),
            temperatureCelsius: temperature,
            isCharging: row.bool(6),
            externalConnected: row.bool(7)
        )
    }

    /// The `BatteryUI` table's columns, in the order ``batteryUISample(_:_:)`` reads them.
    static let batteryUIColumns = ["timestamp", "Level", "IsCharging"]

    /// One `BatteryUI` row as a sample (level and charging only); nil without a time.
    private static func batteryUISample(_ row: [DatabaseValue], _ clock: PowerLogClock) -> PowerLogReport.Battery
        .Sample?
    {
        guard let raw = row.double(0) else { return nil }
        return PowerLogReport.Battery.Sample(at: clock.time(raw), level: row.double(1), isCharging: row.bool(2))
    }

    private mutating func readBattery() {
        let clock = self.clock
        if let table = database.table(Self.batteryTable) {
            var out = KeyedRows<PowerLogReport.Battery.Sample>()
            out.reserveCapacity(expectedRows(table))
            var gauge = records.gauge
            let tableName = table.name
            let outcome = stream(table, Self.batteryColumns) { row in
                guard let sample = Self.batterySample(row, clock, gauge: &gauge) else { return }
                out.append(key: ContentKey(table: tableName, values: row), value: sample)
            }
            Self.move(out, into: &records.battery)
            records.gauge = gauge
            note(outcome, table)
        }
        if let table = database.table(Self.batteryUITable) {
            var out = KeyedRows<PowerLogReport.Battery.Sample>()
            out.reserveCapacity(expectedRows(table))
            let tableName = table.name
            let outcome = stream(table, Self.batteryUIColumns) { row in
                guard let sample = Self.batteryUISample(row, clock) else { return }
                out.append(key: ContentKey(table: tableName, values: row), value: sample)
            }
            Self.move(out, into: &records.batteryUI)
            note(outcome, table)
        }
    }

    // MARK: - Apps and processes

    private mutating func readRunTime() {
        guard let table = database.table(Self.runTimeTable) else { return }
        let wanted = [
            "timestamp", "timeInterval", "BundleID", "ScreenOnTime", "BackgroundTime", "BackgroundAudioPlayingTime",
            "BackgroundLocationTime", "ScreenOnPluggedInTime", "BackgroundPluggedInTime",
        ]
        let clock = self.clock
        collect(
            table,
            wanted,
            into: \.runTime,
            fold: { $0?.add($1) },
            make: { row in
                guard let raw = row.double(0), let bundle = row.string(2) else { return nil }
                let value = RunTimeRow(
                    time: clock.time(raw),
                    interval: row.double(1) ?? 3600,
                    bundleID: bundle,
                    screenOn: row.double(3) ?? 0,
                    background: row.double(4) ?? 0,
                    backgroundAudio: row.double(5) ?? 0,
                    backgroundLocation: row.double(6) ?? 0,
                    screenOnPluggedIn: row.double(7) ?? 0,
                    backgroundPluggedIn: row.double(8) ?? 0
                )
                return (value, row)
            }
        )
    }

    private mutating func readAppNames() {
        guard let table = database.table("PLApplicationAgent_EventNone_AllApps"),
            let rows = fetch(table, ["timestamp", "AppBundleId", "AppName"])
        else { return }
        for row in rows.rows.sorted(by: { ($0.double(0) ?? 0) < ($1.double(0) ?? 0) }) {
            guard let bundle = row.string(1), !bundle.isEmpty, let name = row.string(2), !name.isEmpty else { continue }
            records.appNames[bundle] = name
        }
    }

    private mutating func readExits() {
        guard let table = database.table(Self.exitTable) else { return }
        let wanted = [
            "timestamp", "PID", "ProcessName", "ReasonNamespace", "ReasonCode", "JetsamPriority", "timeSinceSpawn",
            "lastTimeToRelaunch",
        ]
        let clock = self.clock
        collect(
            table,
            wanted,
            into: \.exits,
            fold: { $0?.exits.add($1) },
            make: { row in
                guard let raw = row.double(0) else { return nil }
                let exit = PowerLogReport.ProcessExit(
                    at: clock.time(raw),
                    pid: row.int64(1),
                    process: row.string(2),
                    reason: PowerLogReport.ProcessExit.Reason(namespace: row.int64(3), code: row.uint64(4)),
                    jetsamPriority: row.int64(5),
                    timeSinceSpawnSeconds: row.double(6),
                    lastTimeToRelaunchSeconds: row.double(7)
                )
                return (exit, row)
            }
        )
    }

    private mutating func readCoalitions() {
        guard let table = database.table(Self.coalitionTable) else { return }
        let wanted = [
            "timestamp", "timestampEnd", "BundleId", "LaunchdName", "cpu_time", "gpu_time", "bytesread",
            "byteswritten", "energy",
        ]
        let clock = self.clock
        collect(
            table,
            wanted,
            into: \.coalitions,
            fold: { $0?.add($1) },
            make: { row in
                guard let raw = row.double(0) else { return nil }
                let bundle = row.string(2).flatMap { $0.isEmpty ? nil : $0 }
                guard let name = bundle ?? row.string(3).flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
                let value = CoalitionRow(
                    time: clock.time(raw),
                    seconds: row.double(1).map { max(0, $0 - raw) } ?? 0,
                    name: name,
                    cpu: row.double(4) ?? 0,
                    gpu: row.double(5) ?? 0,
                    bytesRead: row.uint64(6) ?? 0,
                    bytesWritten: row.uint64(7) ?? 0,
                    energy: row.double(8) ?? 0
                )
                return (value, row)
            }
        )
    }

    private mutating func readScreen() {
        guard let table = database.table(Self.displayTable) else { return }
        var out = KeyedRows<PowerLogReport.Screen.Change>()
        out.reserveCapacity(expectedRows(table))
        let clock = self.clock
        let tableName = table.name
        var fold = self.fold
        self.fold = nil
        defer { self.fold = fold }
        // A summary folds in time order: rows read out of order are read again, sorted by SQLite.
        for ordered in fold == nil ? [false] : [false, true] {
            if let limits = fold?.limits {
                fold?.screen = ScreenFold(limits: limits)
                fold?.screen.requiresOrder = !ordered
            }
            let outcome = stream(table, ["timestamp", "Block", "Active"], orderedByTime: ordered) { row in
                guard let raw = row.double(0), let active = row.bool(2) else { return }
                // Only the backlight block says whether the screen is lit.
                if let block = row.string(1), block.lowercased() != "backlight" { return }
                let change = PowerLogReport.Screen.Change(at: clock.time(raw), isOn: active)
                if fold != nil {
                    fold?.screen.add(change)
                    return
                }
                out.append(key: ContentKey(table: tableName, values: row), value: change)
            }
            if fold?.screen.outOfOrder == true, !ordered { continue }
            Self.move(out, into: &records.screen)
            note(outcome, table)
            break
        }
    }

    /// The battery tables for a streamed read, with the screen already read.
    ///
    /// Samples with a level are encoded in time order (read again sorted by SQLite when the rows are out of order),
    /// sessions and drain computed as the full read computes them. The BatteryUI table is read in full only when the
    /// detailed one has no sample with a level.
    private mutating func readBatteryStreamed() {
        guard let spool = batterySpool else { return }
        let clock = self.clock
        let maxGap = options.maxBatteryGapSeconds
        var transitions = records.screen.values.map { ScreenFold.Transition(raw: $0.at.raw, isOn: $0.isOn) }
        transitions.sort { $0.raw < $1.raw }
        var battery: PowerLogReport.Battery?
        if let table = database.table(Self.batteryTable) {
            // The gauge's last stated figures in table order, as the full read takes them: from the first pass.
            var gauge = records.gauge
            for ordered in [false, true] {
                var samples = BatteryStream(spool: spool, maxGap: maxGap)
                samples.requiresOrder = !ordered
                var passGauge = records.gauge
                let outcome = stream(table, Self.batteryColumns, orderedByTime: ordered) { row in
                    guard let sample = Self.batterySample(row, clock, gauge: &passGauge) else { return }
                    samples.add(sample, screen: transitions)
                }
                if !ordered { gauge = passGauge }
                if samples.outOfOrder, !ordered { continue }
                records.gauge = gauge
                battery = samples.finish(source: Self.batteryTable, gauge: gauge)
                note(outcome, table)
                break
            }
        }
        if let table = database.table(Self.batteryUITable) {
            guard battery == nil else {
                // Read all the same, for the findings the full read gives about it.
                note(stream(table, Self.batteryUIColumns) { _ in }, table)
                records.streamedBattery = battery
                return
            }
            for ordered in [false, true] {
                var samples = BatteryStream(spool: spool, maxGap: maxGap)
                samples.requiresOrder = !ordered
                let outcome = stream(table, Self.batteryUIColumns, orderedByTime: ordered) { row in
                    guard let sample = Self.batteryUISample(row, clock) else { return }
                    samples.add(sample, screen: transitions)
                }
                if samples.outOfOrder, !ordered { continue }
                battery = samples.finish(source: Self.batteryUITable, gauge: records.gauge)
                note(outcome, table)
                break
            }
        }
        records.streamedBattery = battery
    }

    /// The battery tables for a summary read: samples folded in time order (read again sorted by SQLite when the
    /// rows are out of order), with the screen transitions already read.
    private mutating func readBatterySummary() {
        guard var fold = self.fold else { return }
        self.fold = nil
        defer { self.fold = fold }
        let clock = self.clock
        let transitions = fold.screen.transitions
        let limits = fold.limits
        let maxGap = options.maxBatteryGapSeconds
        if let table = database.table(Self.batteryTable) {
            for ordered in [false, true] {
                var samples = BatteryFold(limits: limits, maxGap: maxGap)
                samples.requiresOrder = !ordered
                var gauge = records.gauge
                let outcome = stream(table, Self.batteryColumns, orderedByTime: ordered) { row in
                    guard let sample = Self.batterySample(row, clock, gauge: &gauge) else { return }
                    samples.add(sample, screen: transitions)
                }
                if samples.outOfOrder, !ordered { continue }
                fold.battery = samples
                records.gauge = gauge
                note(outcome, table)
                break
            }
        }
        if let table = database.table(Self.batteryUITable) {
            for ordered in [false, true] {
                var samples = BatteryFold(limits: limits, maxGap: maxGap)
                samples.requiresOrder = !ordered
                let outcome = stream(table, Self.batteryUIColumns, orderedByTime: ordered) { row in
                    guard let sample = Self.batteryUISample(row, clock) else { return }
                    samples.add(sample, screen: transitions)
                }
                if samples.outOfOrder, !ordered { continue }
                fold.batteryUI = samples
                note(outcome, table)
                break
            }
        }
    }
}
