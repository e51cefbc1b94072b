import APMInspectCore
import Foundation
import GRDB
import Testing

@testable import PowerLogReading

/// The schema read from `sqlite_master.sql` gives the columns `pragma_table_info` gives, or steps aside.
@Suite struct CreateTableColumnsTests {
    /// Odd but valid `CREATE TABLE` texts, each created in a real database: the parsed columns must be SQLite's.
    static let statements: [String] = [
        "CREATE TABLE 'PLBatteryAgent_EventBackward_Battery' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'Level' REAL)",
        "CREATE TABLE plain(a, b, c)",
        "CREATE TABLE \"q\"\"uoted\" (\"we\"\"ird\" TEXT, [brack ets] INT, `back``tick` REAL, 'it''s' BLOB)",
        "CREATE TABLE commented ( -- a comment, with a comma\n a INTEGER /* b, c ) */, \"b\" TEXT -- last\n)",
        "CREATE TABLE constrained (id INTEGER NOT NULL DEFAULT (1 + 2), name TEXT DEFAULT 'x,y)' CHECK (name <> 'a,b'), "
            + "ts REAL, CONSTRAINT pk PRIMARY KEY (id, ts), UNIQUE (name), FOREIGN KEY (id) REFERENCES plain(a))",
        "CREATE TABLE norowid (k TEXT PRIMARY KEY, v DECIMAL(10, 2)) WITHOUT ROWID",
        "CREATE TABLE strictly (k INTEGER, v TEXT) STRICT",
        "CREATE TEMP TABLE IF NOT EXISTS temp.tmp (x)",
        "CREATE TABLE \"ünïcode\" (\"名前\" TEXT, Größe INTEGER)",
        "CREATE TABLE keywords (\"select\" INT, \"table\" TEXT, key TEXT, timestamp REAL, \"check\" INT)",
    ]

    /// The columns SQLite reports for every table of a database made of `statements`.
    private func pragmaColumns(_ statements: [String]) throws -> [String: [String]] {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            for sql in statements { try db.execute(sql: sql) }
            var out: [String: [String]] = [:]
            for schema in try PowerLogDatabase.schemaFromPragmas(db) { out[schema.name] = schema.columns }
            // The temporary table is not in `main`'s `sqlite_master`: ask for it by name.
            let temp = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('tmp')")
            if !temp.isEmpty { out["tmp"] = temp }
            return out
        }
    }

    @Test func oddStatementsGiveSQLitesColumns() throws {
        let expected = try pragmaColumns(Self.statements)
        for sql in Self.statements {
            let parsed = CreateTableColumns.parse(sql)
            #expect(parsed != nil, "not parsed: \(sql)")
            guard let parsed else { continue }
            #expect(expected.values.contains(parsed), "\(parsed) for \(sql)")
        }
        #expect(CreateTableColumns.parse(Self.statements[2]) == ["we\"ird", "brack ets", "back`tick", "it's"])
        #expect(CreateTableColumns.parse(Self.statements[4]) == ["id", "name", "ts"])
    }

    /// What the reader is not sure of gives nil, for SQLite to be asked.
    @Test func unsureTextStepsAside() {
        let refused = [
            "CREATE TABLE copy AS SELECT 1 AS a",
            "CREATE VIRTUAL TABLE v USING fts5(a, b)",
            "CREATE TABLE gen (a INT, b INT GENERATED ALWAYS AS (a * 2) VIRTUAL)",
            "CREATE TABLE gen2 (a INT, b INT AS (a + 1))",
            "CREATE TABLE twice (a INT, A TEXT)",
            "CREATE TABLE unclosed (a INT, 'b",
            "CREATE TABLE comment (a INT /* never closed",
            "CREATE TABLE noclose (a INT",
            "CREATE TABLE trailing (a INT) garbage",
            "CREATE INDEX i ON t(a)",
            "CREATE TABLE onlyconstraint (PRIMARY KEY (a))",
            "",
            "CREATE",
            "CREATE TABLE t ()",
        ]
        for sql in refused {
            #expect(CreateTableColumns.parse(sql) == nil, "parsed: \(sql)")
        }
    }

    /// Arbitrary text never traps the reader (every byte value, cut at every length).
    @Test func anyPrefixOfOddTextIsSafe() {
        let text = Self.statements.joined(separator: "\u{0}\u{7F}\u{FF}[`'\"")
        let bytes = Array(text.utf8)
        for length in stride(from: 0, through: bytes.count, by: 7) {
            _ = CreateTableColumns.parse(String(decoding: bytes[0..<length], as: UTF8.self))
        }
    }

    /// The schema read from the text and the one read by pragmas agree on the real iOS 15 database.
    @Test func realDatabaseSchemaMatchesThePragmas() throws {
        let path = CorpusSupport.root + "/../shared/corpus/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL"
        guard FileManager.default.fileExists(atPath: path) else { return }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: PowerLogDatabase.immutableURI(path), configuration: configuration)
        defer { try? queue.close() }
        let (fromText, fromPragmas) = try queue.read { db in
            (try PowerLogDatabase.schema(db), try PowerLogDatabase.schemaFromPragmas(db))
        }
        #expect(fromText.count == 367)
        #expect(fromText.map(\.name) == fromPragmas.map(\.name))
        #expect(fromText.map(\.columns) == fromPragmas.map(\.columns))
    }

    /// A database whose tables cannot all be read from their text (a virtual table) still opens, with SQLite's
    /// columns for every table.
    @Test func schemaFallsBackToPragmas() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE a (x, y); CREATE TABLE b (z INT, w INT GENERATED ALWAYS AS (z) STORED)")
            let schema = try PowerLogDatabase.schema(db)
            #expect(schema.map(\.name) == ["a", "b"])
            #expect(schema.map(\.columns) == [["x", "y"], ["z"]])
        }
    }

    /// The census counts tables in batches of ``PowerLogDatabase/censusBatch``: with more tables than two batches
    /// (odd names and declared types among them, one needed table missing), every count and the time range are
    /// what one statement per table gives, and nothing traps.
    @Test func censusAcrossBatchesMatchesOneStatementPerTable() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/many.PLSQL"
        let queue = try DatabaseQueue(path: path)
        let count = PowerLogDatabase.censusBatch * 2 + 7
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE 'PLStorageOperator_EventForward_TimeOffset' ('ID' INTEGER PRIMARY KEY, 'timestamp' REAL,
                      'system' REAL);
                    INSERT INTO PLStorageOperator_EventForward_TimeOffset (timestamp, system) VALUES (1000000000, -60);
                    CREATE TABLE "PLBatteryAgent_EventBackward_Battery" ("ID" INTEGER PRIMARY KEY, "timestamp" TEXT,
                      "Level" TEXT) -- Level as text, hostile
                    ;
                    INSERT INTO PLBatteryAgent_EventBackward_Battery (timestamp, Level) VALUES ('1000000500', 'full'),
                      (NULL, x'00ff'), (NULL, NULL);
                    """
            )
            for i in 0..<count {
                let kind = ["EventPoint", "EventForward", "Aggregate", "EventNone"][i % 4]
                let name = "PLTest\(i)_\(kind)_T\"x\"\"y"
                let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                let interval = kind == "Aggregate" ? ", [timeInterval] REAL" : ""
                try db.execute(sql: "CREATE TABLE \(quoted) (ID INTEGER PRIMARY KEY, 'timestamp' REAL\(interval), v)")
                for row in 0..<(i % 5) {
                    let columns = kind == "Aggregate" ? "timestamp, timeInterval" : "timestamp"
                    let values =
                        kind == "Aggregate"
                        ? "\(1_000_000_000 + i * 10 + row), 3600" : "\(1_000_000_000 + i * 10 + row)"
                    try db.execute(sql: "INSERT INTO \(quoted) (\(columns)) VALUES (\(values))")
                }
            }
        }
        let expected = try queue.read { db in
            try PowerLogDatabase.schemaFromPragmas(db).map { table in
                (table.name, try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.name.sqlIdentifier)") ?? -1)
            }
        }
        try queue.close()
        let result = try PowerLogReader().read(path: path)
        #expect(result.report.tables.count == count + 2)
        #expect(result.report.tables.map(\.name) == expected.map(\.0))
        #expect(result.report.tables.map(\.rows) == expected.map(\.1))
        // The range spans the timed tables' rows (EventPoint and hourly Aggregate), in PowerLog's raw clock.
        let timed = (0..<count).filter { $0 % 4 == 0 || $0 % 4 == 2 }.filter { $0 % 5 > 0 }
        let starts = timed.map { Double(1_000_000_000 + $0 * 10) } + [1_000_000_500]
        let ends = timed.map { Double(1_000_000_000 + $0 * 10 + $0 % 5 - 1) } + [1_000_000_500]
        #expect(result.report.timeRange?.start.raw == starts.min())
        #expect(result.report.timeRange?.end.raw == ends.max())
        let summary = try PowerLogReader().readSummary(path: path)
        #expect(summary.report.tables == result.report.tables)
    }
}
