import APMInspectCore
import Foundation
import GRDB
import Testing

@testable import PowerLogReading

/// What lies beside a database (a rollback journal, a write-ahead log) is said, never applied to the evidence; and
/// a database read twice, from any private copy, gives the same result naming the user's file.
@Suite struct PowerLogSideFileTests {
    private func database(_ folder: String) throws -> String {
        let path = folder + "/CurrentPowerlog.PLSQL"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE PLBatteryAgent_EventBackward_BatteryUI (ID INTEGER PRIMARY KEY, timestamp REAL,
                      IsCharging INTEGER, Level REAL);
                    INSERT INTO PLBatteryAgent_EventBackward_BatteryUI (timestamp, IsCharging, Level)
                      VALUES (1000000000, 0, 50), (1000000600, 0, 49);
                    """
            )
        }
        try queue.close()
        return path
    }

    private func listing(_ folder: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            out[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return out
    }

    @Test func aHotJournalIsAWarningAndIsNotApplied() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try database(folder)
        // A rollback journal's header: its magic number, then the rest of a 512-byte sector.
        let magic: [UInt8] = [0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7]
        FileManager.default.createFile(
            atPath: path + "-journal",
            contents: Data(magic + [UInt8](repeating: 0, count: 504))
        )
        let before = try listing(folder)
        for result in [try PowerLogReader().read(path: path), try PowerLogReader().readSummary(path: path)] {
            let warning = result.diagnostics.first { $0.code == .powerlogHotJournal }
            #expect(warning?.severity == .warning)
            // wording: the finding names the database as given, the only place it is named.
            #expect(warning?.message.hasPrefix("CurrentPowerlog.PLSQL: ") == true)
            #expect(result.report.battery?.samples.count == 2)
        }
        #expect(try listing(folder) == before, "nothing written beside the evidence, the journal untouched")
    }

    @Test func aJournalWithoutItsHeaderIsANote() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try database(folder)
        // journal_mode=PERSIST leaves the file with its header zeroed: nothing to roll back.
        FileManager.default.createFile(atPath: path + "-journal", contents: Data(repeating: 0, count: 512))
        let result = try PowerLogReader().read(path: path)
        let finding = result.diagnostics.first { $0.code == .powerlogColdJournal }
        #expect(finding?.severity == .note)
        #expect(!result.diagnostics.contains { $0.code == .powerlogHotJournal })
    }

    @Test func noSideFileNoFinding() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try PowerLogReader().read(path: try database(folder))
        let sideFiles: Set<Diagnostic.Code> = [.powerlogHotJournal, .powerlogColdJournal, .powerlogWALReplayed]
        #expect(!result.diagnostics.contains { sideFiles.contains($0.code) })
    }

    @Test func aWriteAheadLogWithContentIsANote() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let live = folder + "/live.PLSQL"
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let pool = try DatabasePool(path: live, configuration: configuration)
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE PLBatteryAgent_EventBackward_BatteryUI (ID INTEGER PRIMARY KEY, timestamp REAL,
                      IsCharging INTEGER, Level REAL);
                    INSERT INTO PLBatteryAgent_EventBackward_BatteryUI (timestamp, IsCharging, Level) VALUES (1, 0, 5);
                    """
            )
        }
        let copy = folder + "/copy"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: live + suffix, toPath: copy + "/live.PLSQL" + suffix)
        }
        try pool.close()
        let before = try listing(copy)
        let result = try PowerLogReader().readSummary(path: copy + "/live.PLSQL")
        let note = result.diagnostics.first { $0.code == .powerlogWALReplayed }
        #expect(note?.severity == .note)
        #expect(result.report.battery?.samples.count == 1, "the log's rows were read")
        #expect(try listing(copy) == before)
    }

    /// The fuzz findings where two parses differed (a diagnostic naming the private copy, a table read once and
    /// refused as malformed the next time, buckets in hash order): read twice from bytes (a new private copy each
    /// time) and twice from the file, the results are equal and every diagnostic names only what the caller named.
    @Test(arguments: [
        "damaged-table-truncated.PLSQL", "damaged-cell-off-page.PLSQL.gz", "energy-buckets-in-hash-order.PLSQL",
    ])
    func twoReadsAreEqualAndNameTheUsersFile(_ name: String) throws {
        let bytes = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: CorpusSupport.root + "/Fuzz/FailCases/FuzzPowerLog/" + name))
        )
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reader = PowerLogReader(options: PowerLogReadOptions(temporaryDirectory: folder))
        let first = try reader.read(bytes: bytes, name: "evidence/\(name)")
        let second = try reader.read(bytes: bytes, name: "evidence/\(name)")
        #expect(!first.diagnostics.isEmpty, "the damaged database is reported")
        for result in [first, second] {
            for diagnostic in result.diagnostics {
                // wording: each finding names the file as it was given, never the private copy read in its place.
                let named =
                    diagnostic.message.hasPrefix("\(name): ") || diagnostic.message.hasPrefix("evidence/\(name): ")
                #expect(named, "\(diagnostic.message)")
                #expect(!diagnostic.message.contains(folder) && !diagnostic.message.contains("powerlog.sqlite"))
            }
            #expect(result.report.sources.map(\.path) == ["evidence/\(name)"])
        }
        let path = folder + "/" + name
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let fromFile = try reader.read(path: path)
        let again = try reader.read(path: path)
        let summary = try reader.readSummary(path: path)
        #expect(first == second)
        #expect(fromFile == again)
        // The same findings, each naming the file as it was given.
        func findings(_ result: PowerLogReadResult) -> [String] {
            result.diagnostics.map { String($0.message.split(separator: ":", maxSplits: 1).last ?? "") }
        }
        #expect(findings(fromFile) == findings(first))
        #expect(summary.diagnostics == fromFile.diagnostics)
    }
}
