import Foundation
import Synchronization
import Testing

@testable import PowerLogReading

/// A damaged table in a database cut short is refused, never read.
///
/// Its cell runs off the end of its page: SQLite 3.40 read that row from whatever memory followed the page, so
/// reads on different threads gave different bytes or "malformed". The table is now checked (`PRAGMA quick_check`).
@Suite struct PowerLogDamagedTableTests {
    static let name = "damaged-cell-off-page.PLSQL.gz"

    func input(_ name: String = Self.name) throws -> [UInt8] {
        try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: CorpusSupport.root + "/Fuzz/FailCases/FuzzPowerLog/" + name))
        )
    }

    /// Reads on many threads give one answer.
    ///
    /// The second file is whole (37,888 bytes, as its header says) and damaged inside: `apm-inspect fuzz` in CI
    /// read it differently on its two worker threads. A table SQLite cannot count sends it to the check too.
    @Test(arguments: [Self.name, "damaged-whole-size.PLSQL"])
    func readsOnManyThreadsAgree(_ name: String) throws {
        let bytes = try input(name)
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outcomes = Mutex<[String: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 24) { _ in
            let reader = PowerLogReader(options: PowerLogReadOptions(temporaryDirectory: folder))
            let text: String
            do {
                let result = try reader.read(bytes: bytes, name: name)
                let tables = result.report.tables.map { "\($0.name)=\($0.rows)" }
                text = (result.diagnostics.map(\.message) + tables).joined(separator: "\n")
            } catch {
                text = "error: \(error)"
            }
            outcomes.withLock { $0[text, default: 0] += 1 }
        }
        let seen = outcomes.withLock { $0 }
        #expect(seen.count == 1, "\(seen.keys.sorted().joined(separator: "\n----\n"))")
    }

    @Test func theDamagedTableIsNamedWithSQLitesFindingAndNotRead() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reader = PowerLogReader(options: PowerLogReadOptions(temporaryDirectory: folder))
        let result = try reader.read(bytes: try input(), name: Self.name)
        let damaged = result.diagnostics.filter { $0.code == .powerlogDamagedTable }
        #expect(damaged.contains { $0.location?.keyPath == "PLConfigAgent_EventNone_Config" }, "\(result.diagnostics)")
        // Reported once per table (by the census), not again by each read of it.
        #expect(Set(damaged.compactMap(\.location?.keyPath)).count == damaged.count, "\(result.diagnostics)")
        #expect(result.report.tables.first { $0.name == "PLConfigAgent_EventNone_Config" }?.rows == 0)
        // Undamaged tables are still read in full.
        #expect(result.report.tables.first { $0.name == "PLBatteryAgent_EventBackward_BatteryUI" }?.rows == 25)
    }

    @Test func aWholeDatabaseDamagedInsideIsChecked() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reader = PowerLogReader(options: PowerLogReadOptions(temporaryDirectory: folder))
        let result = try reader.read(bytes: try input("damaged-whole-size.PLSQL"), name: "whole.PLSQL")
        #expect(result.diagnostics.contains { $0.code == .powerlogDamagedTable })
    }

    @Test func aWholeDatabaseIsNotChecked() throws {
        let path = CorpusSupport.root + "/Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL"
        let database = try PowerLogDatabase(path: path, immutable: true)
        defer { database.close() }
        #expect(database.damagedTables.isEmpty)
    }
}
