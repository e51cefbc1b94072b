import APMInspectCore
import Foundation
import GRDB
import Testing

@testable import PowerLogReading

/// The summary read (`readSummary`): the same figures as the full read on real databases, bounded state on
/// generated ones of any size, and time order restored when the rows are not in it.
@Suite struct PowerLogSummaryTests {
    private static let corpus =
        [CorpusSupport.ios15, CorpusSupport.ios15Gzip, CorpusSupport.ios8] + CorpusSupport.rotated

    /// Every figure the text shows is the full read's; lists are the full read's within the bounds.
    @Test(arguments: corpus)
    func summaryEqualsTheFullReadOnTheCorpus(_ path: String) throws {
        let full = try PowerLogReader().read(path: path)
        let summary = try PowerLogReader().readSummary(path: path)
        #expect(summary.diagnostics == full.diagnostics)
        var report = summary.report
        let abridged = try #require(report.abridged)
        #expect(report.energy == full.report.energy)
        #expect(report.apps == full.report.apps)
        #expect(report.appRunTime == full.report.appRunTime)
        #expect(report.coalitions == full.report.coalitions)
        #expect(report.screen == full.report.screen)
        #expect(report.processExits == full.report.processExits)
        #expect(abridged.processExits == full.report.processExits.count)
        var categories: [String: Int] = [:]
        for exit in full.report.processExits { categories[exit.reason.category.rawValue, default: 0] += 1 }
        #expect(abridged.exitCategories == categories)
        #expect(report.battery == full.report.battery)
        #expect(abridged.batterySamples == full.report.battery?.samples.count ?? 0)
        #expect(abridged.batterySessions == full.report.battery?.sessions.count ?? 0)
        let levels = full.report.battery?.samples.compactMap { $0.level ?? $0.rawLevel } ?? []
        #expect(abridged.batteryLevel?.low == levels.min())
        #expect(abridged.batteryLevel?.high == levels.max())
        // Background location: the full read's uses folded per app.
        var perApp: [String: (Int, Double, Double, Double, Double)] = [:]
        for use in full.report.backgroundLocation {
            var entry = perApp[use.app] ?? (0, 0, 0, use.start.raw, use.start.raw)
            entry.0 += 1
            entry.1 += use.energy ?? 0
            entry.2 += use.seconds ?? 0
            entry.3 = min(entry.3, use.start.raw)
            entry.4 = max(entry.4, use.start.raw)
            perApp[use.app] = entry
        }
        #expect(abridged.backgroundLocationApps.count == perApp.count)
        for app in abridged.backgroundLocationApps {
            let expected = try #require(perApp[app.app])
            #expect(app.buckets == expected.0)
            #expect(abs(app.energy - expected.1) <= 1e-9 * max(1, abs(expected.1)))
            #expect(abs(app.seconds - expected.2) <= 1e-9 * max(1, abs(expected.2)))
            #expect(app.first.raw == expected.3 && app.last.raw == expected.4)
        }
        // Apart from the abridgement and the background location (folded per app), the reports are equal.
        report.abridged = nil
        report.backgroundLocation = full.report.backgroundLocation
        #expect(report == full.report)
    }

    @Test func aCorpusFileWithEveryFamilyIsNotTrivial() throws {
        let summary = try PowerLogReader().readSummary(path: CorpusSupport.ios15)
        #expect(summary.report.apps.count > 3)
        #expect((summary.report.abridged?.batterySamples ?? 0) > 10)
        #expect(summary.report.processExits.isEmpty == false)
    }

    // MARK: - Generated databases

    private static let schema = """
        CREATE TABLE PLStorageOperator_EventForward_TimeOffset (ID INTEGER PRIMARY KEY, timestamp REAL, system REAL);
        INSERT INTO PLStorageOperator_EventForward_TimeOffset (timestamp, system) VALUES (1000000000, -60);
        CREATE TABLE PLBatteryAgent_EventBackward_Battery (ID INTEGER PRIMARY KEY, timestamp REAL, Level REAL,
          RawLevel REAL, Voltage REAL, Temperature REAL, IsCharging INTEGER, ExternalConnected INTEGER);
        CREATE TABLE PLAccountingOperator_Aggregate_RootNodeEnergy (ID INTEGER PRIMARY KEY, timestamp REAL,
          timeInterval REAL, Energy REAL, NodeID INTEGER, RootNodeID INTEGER);
        CREATE TABLE PLProcessMonitorAgent_EventPoint_ProcessExit (ID INTEGER PRIMARY KEY, timestamp REAL, PID INTEGER,
          ProcessName TEXT, ReasonNamespace INTEGER, ReasonCode INTEGER);
        CREATE TABLE PLDisplayAgent_EventPoint_Display (ID INTEGER PRIMARY KEY, timestamp REAL, Block TEXT,
          Active INTEGER);
        """

    /// A database of `rows` battery samples (charging every other one: a session each), `rows` energy rows of
    /// distinct consumers, `rows` exits and screen changes; `shuffled` writes the rows out of time order.
    private func generated(_ folder: String, rows: Int, shuffled: Bool) throws -> String {
        let path = folder + "/generated.PLSQL"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: Self.schema)
            var order = Array(0..<rows)
            if shuffled {
                // A fixed permutation: reversed halves, interleaved.
                order = Array(
                    order.reversed().enumerated().sorted { ($0.offset % 7, $0.offset) < ($1.offset % 7, $1.offset) }
                        .map(\.element)
                )
            }
            for i in order {
                let time = 1_000_000_000 + 60 * Double(i)
                try db.execute(
                    sql: "INSERT INTO PLBatteryAgent_EventBackward_Battery (timestamp, Level, RawLevel, Voltage,"
                        + " Temperature, IsCharging, ExternalConnected) VALUES (?, ?, ?, ?, ?, ?, 0)",
                    arguments: [
                        time, 100 - Double(i % 100), 100 - Double(i % 100), 3800 + i % 400, 25 + Double(i % 10), i % 2,
                    ]
                )
                try db.execute(
                    sql: "INSERT INTO PLAccountingOperator_Aggregate_RootNodeEnergy (timestamp, timeInterval, Energy,"
                        + " NodeID, RootNodeID) VALUES (?, 3600, ?, ?, 1)",
                    arguments: [1_000_000_000 + 3600 * Double(i % 500), Double(1 + i % 13), 20_000 + i]
                )
                try db.execute(
                    sql: "INSERT INTO PLProcessMonitorAgent_EventPoint_ProcessExit (timestamp, PID, ProcessName,"
                        + " ReasonNamespace, ReasonCode) VALUES (?, ?, 'Worker', ?, 9)",
                    arguments: [time, i, 1 + i % 2]
                )
                try db.execute(
                    sql:
                        "INSERT INTO PLDisplayAgent_EventPoint_Display (timestamp, Block, Active) VALUES (?, 'Backlight', ?)",
                    arguments: [time + 30, (i / 3) % 2]
                )
            }
        }
        try queue.close()
        return path
    }

    private static let small = PowerLogSummaryLimits(
        maxNames: 100,
        maxBuckets: 50,
        maxBucketEntries: 200,
        keptRecent: 20,
        keptSamples: 64,
        maxScreenTransitions: 10_000,
        maxDailyRows: 10
    )

    /// Past the bounds the lists stay within them, the counts cover every row and each bound reached is a warning.
    @Test func boundsHoldAndAreSaid() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rows = 3000
        let path = try generated(folder, rows: rows, shuffled: false)
        let full = try PowerLogReader().read(path: path)
        let summary = try PowerLogReader().readSummary(path: path, limits: Self.small)
        let report = summary.report
        let abridged = try #require(report.abridged)
        let battery = try #require(report.battery)
        #expect(battery.samples.count <= 64 + 1)
        #expect(battery.samples.first == full.report.battery?.samples.first)
        #expect(battery.samples.last == full.report.battery?.samples.last)
        #expect(abridged.batterySamples == rows)
        #expect(abridged.batterySessions == full.report.battery?.sessions.count)
        #expect(abridged.batterySessions == rows)
        #expect(battery.sessions == Array(full.report.battery?.sessions.suffix(20) ?? []))
        #expect(battery.drain == full.report.battery?.drain)
        #expect(abridged.batteryVoltageMillivolts == .init(low: 3800, high: 4199))
        #expect(report.processExits == Array(full.report.processExits.suffix(20)))
        #expect(abridged.processExits == rows)
        #expect(abridged.exitCategories == ["jetsam": rows / 2, "other": rows / 2])
        #expect(report.screen?.onSeconds == full.report.screen?.onSeconds)
        #expect(report.screen?.offSeconds == full.report.screen?.offSeconds)
        // 3000 distinct consumers, 100 ranked; the total still counts every row.
        #expect(report.apps.count == 100)
        #expect(report.energy?.total == full.report.energy?.total)
        #expect((report.energy?.buckets.count ?? 0) == 50)
        // The consumers ranked, the buckets kept and the consumer sums in them: three bounds, each said.
        let bounds = summary.diagnostics.filter { $0.code == .powerlogSummaryBound }
        #expect(bounds.count == 3, "\(summary.diagnostics)")
    }

    /// Rows written out of time order are read again sorted: sessions, drain and exits are the full read's.
    @Test func rowsOutOfTimeOrderAreSortedFirst() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try generated(folder, rows: 600, shuffled: true)
        let full = try PowerLogReader().read(path: path)
        let summary = try PowerLogReader().readSummary(path: path)
        #expect(summary.report.battery == full.report.battery)
        #expect(summary.report.screen == full.report.screen)
        #expect(summary.report.processExits == full.report.processExits)
        #expect(summary.report.apps == full.report.apps)
        #expect(summary.diagnostics == full.diagnostics)
    }

    /// Sample thinning keeps every kept sample evenly spaced whatever the count.
    @Test func thinningStaysEven() {
        let limits = PowerLogSummaryLimits(keptSamples: 8)
        var fold = BatteryFold(limits: limits, maxGap: 1e9)
        for i in 0..<1000 {
            let time = PowerLogTime(raw: Double(i), clockOffset: 0, wallClock: nil)
            fold.add(.init(at: time, level: 50), screen: [])
        }
        let result = fold.finish(source: "t", gauge: (nil, nil, nil))
        let raws = result?.0.samples.map(\.at.raw) ?? []
        #expect(raws.count <= 9)
        #expect(raws.first == 0 && raws.last == 999)
        let steps = Set(zip(raws.dropLast(), raws.dropFirst().dropLast()).map { $1 - $0 })
        #expect(steps.count == 1)
    }
}
