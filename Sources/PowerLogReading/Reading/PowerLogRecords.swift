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

/// A record and its content key.
struct Keyed<Value> {
    var key: ContentKey
    var value: Value
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
    var timeOffsets: [Keyed<PowerLogReport.TimeOffset>] = []
    var energy: [Keyed<EnergyRow>] = []
    var blm: [Keyed<BLMRow>] = []
    var battery: [Keyed<PowerLogReport.Battery.Sample>] = []
    var batteryUI: [Keyed<PowerLogReport.Battery.Sample>] = []
    var gauge: (cycleCount: Int64?, design: Int64?, max: Int64?) = (nil, nil, nil)
    /// Display names by bundle id, from `PLApplicationAgent_EventNone_AllApps`.
    var appNames: [String: String] = [:]
    var runTime: [Keyed<RunTimeRow>] = []
    var exits: [Keyed<PowerLogReport.ProcessExit>] = []
    var coalitions: [Keyed<CoalitionRow>] = []
    var screen: [Keyed<PowerLogReport.Screen.Change>] = []
    var diagnostics: [Diagnostic] = []
    /// A summary read's folded rows (the row arrays above are then empty).
    var fold: PowerLogFold?

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
    static func union<Value>(_ base: inout [Keyed<Value>], _ added: [Keyed<Value>]) {
        guard !base.isEmpty else {
            base = added
            return
        }
        var have: [ContentKey: Int] = [:]
        for item in base { have[item.key, default: 0] += 1 }
        var seen: [ContentKey: Int] = [:]
        for item in added {
            seen[item.key, default: 0] += 1
            if let count = seen[item.key], count > have[item.key, default: 0] { base.append(item) }
        }
    }
}
