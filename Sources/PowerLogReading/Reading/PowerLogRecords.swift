import APMInspectCore
import GRDB

/// The identity of a row by its content (table and values, never its `ID`), to count a row repeated in
/// several files once: IDs survive trimming but the same row sits in the live log, a rotated archive and a
/// sysdiagnose copy.
///
/// Held as a 128-bit digest of the values rather than the values themselves: a key per row of a ten-million-row
/// table held each value twice (a row's array and its strings cost more than the record made from it). Two
/// differently salted SipHash runs (the process's own seed, so equal rows of different files agree); a false
/// match between distinct rows needs a 128-bit collision.
struct ContentKey: Hashable {
    var table: String
    var low: UInt64
    var high: UInt64

    init(table: String, values: [DatabaseValue]) {
        self.table = table
        var first = Hasher()
        var second = Hasher()
        first.combine(0x51)
        second.combine(0xA7)
        first.combine(values)
        second.combine(values)
        low = UInt64(UInt(bitPattern: first.finalize()))
        high = UInt64(UInt(bitPattern: second.finalize()))
    }
}

/// Records and their content keys, side by side.
///
/// Two lists rather than one of key-record pairs: the analysis takes the records and drops the keys without copying
/// anything, where a list of pairs had to be mapped into a list of records, both alive at once (104 + 72 bytes a
/// battery sample).
struct KeyedRows<Value> {
    private(set) var keys: [ContentKey] = []
    private(set) var values: [Value] = []

    var isEmpty: Bool { values.isEmpty }

    mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    mutating func append(key: ContentKey, value: Value) {
        keys.append(key)
        values.append(value)
    }

    mutating func append(contentsOf other: KeyedRows<Value>) {
        keys += other.keys
        values += other.values
    }

    /// The records, the keys dropped: the caller holds the only reference to the list once `self` is gone.
    consuming func takeValues() -> [Value] { values }
}

/// One `RootNodeEnergy` row with its node names resolved.
struct EnergyRow {
    var time: PowerLogTime
    var interval: Double
    var node: String
    var root: String
    var energy: Double
    /// The node is a permanent hardware or virtual node (or the root itself), not an app or process.
    var isSystemNode: Bool
}

/// One iOS 8 `BLMAppEnergyBreakdown` row.
struct BLMRow {
    var time: PowerLogTime
    var interval: Double
    var app: String
    var total: Double?
    var columns: [String: Double]
    var backgroundCPU: Double?
    var backgroundLocation: Double?
}

/// One `AppRunTime` bucket.
struct RunTimeRow {
    var time: PowerLogTime
    var interval: Double
    var bundleID: String
    var screenOn: Double
    var background: Double
    var backgroundAudio: Double
    var backgroundLocation: Double
    var screenOnPluggedIn: Double
    var backgroundPluggedIn: Double
}

/// One `CoalitionInterval` row.
struct CoalitionRow {
    var time: PowerLogTime
    var seconds: Double
    var name: String
    var cpu: Double
    var gpu: Double
    var bytesRead: UInt64
    var bytesWritten: UInt64
    var energy: Double
}

/// Everything read from one or more files, before the summaries are computed.
struct PowerLogRecords {
    var sources: [PowerLogReport.Source] = []
    var device: String?
    var osBuild: String?
    var loggingMode: String?
    var storageVersion: String?
    var timeZone: String?
    var tables: [PowerLogReport.Table] = []
    var rangeStart: PowerLogTime?
    var rangeEnd: PowerLogTime?
    var timeOffsets: KeyedRows<PowerLogReport.TimeOffset> = KeyedRows()
    var energy: KeyedRows<EnergyRow> = KeyedRows()
    var blm: KeyedRows<BLMRow> = KeyedRows()
    var battery: KeyedRows<PowerLogReport.Battery.Sample> = KeyedRows()
    var batteryUI: KeyedRows<PowerLogReport.Battery.Sample> = KeyedRows()
    var gauge: (cycleCount: Int64?, design: Int64?, max: Int64?) = (nil, nil, nil)
    /// Display names by bundle id, from `PLApplicationAgent_EventNone_AllApps`.
    var appNames: [String: String] = [:]
    var runTime: KeyedRows<RunTimeRow> = KeyedRows()
    var exits: KeyedRows<PowerLogReport.ProcessExit> = KeyedRows()
    var coalitions: KeyedRows<CoalitionRow> = KeyedRows()
    var screen: KeyedRows<PowerLogReport.Screen.Change> = KeyedRows()
    var diagnostics: [Diagnostic] = []
    /// A summary read's folded rows (the row arrays above are then empty).
    var fold: PowerLogFold?
    /// A streamed read's battery section, its samples and sessions in the read's spool (`battery` and `batteryUI`
    /// are then empty).
    var streamedBattery: PowerLogReport.Battery?

    /// Adds another file's records; rows already present (by content) are not added again.
    mutating func merge(_ other: PowerLogRecords) {
        sources += other.sources
        device = other.device ?? device
        osBuild = other.osBuild ?? osBuild
        loggingMode = other.loggingMode ?? loggingMode
        storageVersion = other.storageVersion ?? storageVersion
        timeZone = other.timeZone ?? timeZone
        for table in other.tables {
            if let index = tables.firstIndex(where: { $0.name == table.name }) {
                tables[index].rows += table.rows
            } else {
                tables.append(table)
            }
        }
        if let start = other.rangeStart, rangeStart.map({ start.utcSeconds < $0.utcSeconds }) ?? true {
            rangeStart = start
        }
        if let end = other.rangeEnd, rangeEnd.map({ end.utcSeconds > $0.utcSeconds }) ?? true { rangeEnd = end }
        Self.union(&timeOffsets, other.timeOffsets)
        Self.union(&energy, other.energy)
        Self.union(&blm, other.blm)
        Self.union(&battery, other.battery)
        Self.union(&batteryUI, other.batteryUI)
        gauge = (
            other.gauge.cycleCount ?? gauge.cycleCount, other.gauge.design ?? gauge.design, other.gauge.max ?? gauge.max
        )
        Self.union(&runTime, other.runTime)
        appNames.merge(other.appNames) { _, newer in newer }
        Self.union(&exits, other.exits)
        Self.union(&coalitions, other.coalitions)
        Self.union(&screen, other.screen)
        diagnostics += other.diagnostics
    }

    /// Multiset union: a row appearing k times in one file and m times in another is kept max(k, m) times, so
    /// genuinely repeated rows inside one file survive while copies across files do not.
    ///
    /// `base` grows in place: a returned copy of it held the history's rows twice while merging.
    static func union<Value>(_ base: inout KeyedRows<Value>, _ added: KeyedRows<Value>) {
        guard !base.isEmpty else {
            base = added
            return
        }
        var have: [ContentKey: Int] = [:]
        for key in base.keys { have[key, default: 0] += 1 }
        var seen: [ContentKey: Int] = [:]
        for (key, value) in zip(added.keys, added.values) {
            seen[key, default: 0] += 1
            if let count = seen[key], count > have[key, default: 0] { base.append(key: key, value: value) }
        }
    }
}
