import APMInspectCore
import Foundation
import FuzzReplaySupport
import GRDB
import Testing

@testable import PowerLogReading

/// The streamed read (`readStreamed`, for `energy --format json`): the battery rows go to a spool as they are read,
/// and what it gives is the full read's, byte for byte once written.
@Suite struct PowerLogStreamedReadTests {
    private static let corpus =
        [CorpusSupport.ios15, CorpusSupport.ios15Gzip, CorpusSupport.ios8] + CorpusSupport.rotated

    /// The spooled arrays are the full read's samples and sessions as the encoder writes them in the document; the
    /// rest of the report and the diagnostics are the full read's.
    private func expectStreamedEqualsFull(_ path: String) throws {
        let full = try PowerLogReader().read(paths: [path])
        let encoder = SortedJSONEncoder(pretty: true)
        let spool = try PowerLogBatterySpool(encoder: encoder, depth: 3)
        let streamed = try PowerLogReader().readStreamed(path: path, spool: spool)
        #expect(spool.isUsable)
        #expect(streamed.diagnostics == full.diagnostics)
        var expectedBattery = full.report.battery
        expectedBattery?.samples = []
        expectedBattery?.sessions = []
        #expect(streamed.report.battery == expectedBattery)
        var rest = streamed.report
        rest.battery = nil
        var fullRest = full.report
        fullRest.battery = nil
        #expect(rest == fullRest)
        #expect(written(spool.samples) == (try encoder.encode(full.report.battery?.samples ?? [], depth: 3)))
        #expect(written(spool.sessions) == (try encoder.encode(full.report.battery?.sessions ?? [], depth: 3)))
    }

    private func written(_ spool: JSONArraySpool) -> String {
        var bytes: [UInt8] = []
        let complete = spool.writeArray { bytes += $0 }
        #expect(complete)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: corpus.filter { !$0.hasSuffix(".gz") })
    func streamedEqualsTheFullReadOnTheCorpus(_ path: String) throws {
        try expectStreamedEqualsFull(path)
    }

    /// Rows out of time order are read again sorted by SQLite: the spool starts over and ends as the full read's
    /// sorted lists.
    @Test func rowsOutOfTimeOrderAreSortedFirst() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try expectStreamedEqualsFull(try generated(folder, rows: 500, shuffled: true, levels: true))
        try expectStreamedEqualsFull(try generated(folder, rows: 500, shuffled: false, levels: true))
    }

    /// A detailed table without levels gives way to BatteryUI, as in the full read.
    @Test func batteryUIWhenTheDetailedTableHasNoLevel() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try generated(folder, rows: 200, shuffled: true, levels: false)
        try expectStreamedEqualsFull(path)
        let full = try PowerLogReader().read(path: path)
        #expect(full.report.battery?.source == PowerLogExtractor.batteryUITable)
        #expect(full.report.battery?.sessions.count == 200)
    }

    /// The hand-written JSON of samples, sessions and times is their synthesised `encode(to:)`, with every optional
    /// present and absent.
    @Test func directEncodingIsTheCodableForm() throws {
        let samples = try #require(try PowerLogReader().read(path: CorpusSupport.ios15).report.battery?.samples)
        let time = PowerLogTime(raw: 1e300, clockOffset: 0, wallClock: nil)
        let sparse = PowerLogReport.Battery.Sample(at: time, level: nil)
        let sample = try #require(samples.first)
        #expect(directEncodingMismatches(NestedHolder(single: sample, list: samples, nested: [[sparse]])).isEmpty)
        #expect(directEncodingMismatches(NestedHolder(single: time, list: samples.map(\.at), nested: [])).isEmpty)
        let session = PowerLogReport.Battery.Session(
            kind: .onCharger,
            start: sample.at,
            end: time,
            startLevel: nil,
            endLevel: 42.5,
            samples: 3
        )
        let sessions = try #require(try PowerLogReader().read(path: CorpusSupport.ios15).report.battery?.sessions)
        #expect(directEncodingMismatches(NestedHolder(single: session, list: sessions, nested: [[session]])).isEmpty)
    }

    private static let schema = """
        CREATE TABLE PLStorageOperator_EventForward_TimeOffset (ID INTEGER PRIMARY KEY, timestamp REAL, system REAL);
        INSERT INTO PLStorageOperator_EventForward_TimeOffset (timestamp, system) VALUES (1000000000, -60);
        CREATE TABLE PLBatteryAgent_EventBackward_Battery (ID INTEGER PRIMARY KEY, timestamp REAL, Level REAL,
          RawLevel REAL, Voltage REAL, Temperature REAL, IsCharging INTEGER, ExternalConnected INTEGER,
          CycleCount INTEGER);
        CREATE TABLE PLBatteryAgent_EventBackward_BatteryUI (ID INTEGER PRIMARY KEY, timestamp REAL, Level REAL,
          IsCharging INTEGER);
        CREATE TABLE PLDisplayAgent_EventPoint_Display (ID INTEGER PRIMARY KEY, timestamp REAL, Block TEXT,
          Active INTEGER);
        """

    /// A database of `rows` battery samples (charging every other one: a session each; no level when not
    /// `levels`) and as many BatteryUI samples and screen changes; `shuffled` writes them out of time order.
    private func generated(_ folder: String, rows: Int, shuffled: Bool, levels: Bool) throws -> String {
        let path = folder + "/generated-\(rows)-\(shuffled)-\(levels).PLSQL"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: Self.schema)
            var order = Array(0..<rows)
            if shuffled {
                order = order.reversed().enumerated().sorted { ($0.offset % 7, $0.offset) < ($1.offset % 7, $1.offset) }
                    .map(\.element)
            }
            for i in order {
                let time = 1_000_000_000 + 60 * Double(i)
                let level: Double? = levels ? 100 - Double(i % 100) : nil
                try db.execute(
                    sql: "INSERT INTO PLBatteryAgent_EventBackward_Battery (timestamp, Level, RawLevel, Voltage,"
                        + " Temperature, IsCharging, ExternalConnected, CycleCount) VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                    arguments: [time, level, level, 3800 + i % 400, 25 + Double(i % 10), i % 2, i]
                )
                try db.execute(
                    sql: "INSERT INTO PLBatteryAgent_EventBackward_BatteryUI (timestamp, Level, IsCharging)"
                        + " VALUES (?, ?, ?)",
                    arguments: [time + 5, 100 - Double(i % 100), i % 2]
                )
                try db.execute(
                    sql: "INSERT INTO PLDisplayAgent_EventPoint_Display (timestamp, Block, Active)"
                        + " VALUES (?, 'Backlight', ?)",
                    arguments: [time + 30, (i / 3) % 2]
                )
            }
        }
        try queue.close()
        return path
    }
}
