import APMInspectCore
import Foundation
import GRDB

/// An open PowerLog database: a read-only connection and its schema, introspected before any query.
///
/// Input is hostile: the connection is read-only and `query_only`, the schema is not trusted (`trusted_schema`
/// off, so no function in a view or trigger runs), extensions stay disabled, and only tables listed in
/// `sqlite_master` are read, only through the columns their `CREATE TABLE` declares.
struct PowerLogDatabase {
    /// A table's name and columns as the file declares them.
    struct TableSchema: Sendable {
        var name: String
        var columns: [String]

        /// The declared name of `column`, matched case-insensitively (`BundleId` vs `BundleID`).
        func column(_ column: String) -> String? {
            let lower = column.lowercased()
            return columns.first { $0.lowercased() == lower }
        }
    }

    let queue: DatabaseQueue
    let tables: [TableSchema]
    /// Tables SQLite's own check found damaged, with the first problem it named; their rows are never read.
    ///
    /// SQLite 3.40 reads a row whose cell runs off the end of its page from whatever memory follows the page: the
    /// same damaged file then gives a row of different bytes, or "malformed", from one read to the next (a fuzz
    /// finding, reproduced outside this project with Python's sqlite3 on other threads). `PRAGMA quick_check` on
    /// the table is deterministic, so a table it faults is reported and skipped instead of read. The check costs a
    /// pass over the file, so it runs only on a file that shows damage cheaply: a size that disagrees with its
    /// header (a copy cut short), or a table SQLite cannot count.
    let damagedTables: [String: String]
    /// Each readable table's ``Census``, by name; a table SQLite cannot count (or found damaged) has none.
    ///
    /// Taken while opening, because counting every table is also how damage is detected: one statement per table in
    /// one read transaction, where counting first and taking the census later cost two statements and two
    /// transactions per table (a real database has some 370 tables; this halved `energy`'s instructions).
    let censuses: [String: Census]

    /// Opens `path` read-only and reads its schema.
    ///
    /// - Parameters:
    ///   - path: The database file.
    ///   - immutable: Opens through SQLite's `immutable=1` URI: no lock, no `-shm` or `-wal` file is ever created
    ///     beside the file, and a write-ahead log is not looked for. For evidence files whose `-wal` sibling is
    ///     absent or empty; a log with content is read from a private copy instead.
    /// - Throws: ``PowerLogError`` with code `database` when SQLite cannot open the file or read its schema.
    init(path: String, immutable: Bool = false) throws(PowerLogError) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "PowerLogReading"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA trusted_schema = OFF")
            try db.execute(sql: "PRAGMA query_only = ON")
            try db.execute(sql: "PRAGMA cell_size_check = ON")
            try db.execute(sql: "PRAGMA mmap_size = 0")
        }
        do {
            queue = try DatabaseQueue(
                path: immutable ? Self.immutableURI(path) : path,
                configuration: configuration
            )
            let schema = try queue.read { db in try Self.schema(db) }
            tables = schema
            var damaged: [String: String] = [:]
            var counted =
                (try? queue.read { db in Self.isCutShort(path: path, db) }) == true
                ? nil : Self.censusInOneRead(schema, queue)
            if counted == nil {
                // One read per table: after SQLite faults a table, the rest of that read transaction fails too.
                var one: [String: Census] = [:]
                for table in schema {
                    // Only whether the check passes is kept: what it names first, or whether it fails outright,
                    // varies with the same memory the check guards against.
                    let passes =
                        (try? queue.read { db in try Self.damage(of: table.name, db) == nil }) ?? false
                    if !passes {
                        damaged[table.name] = "quick_check"
                    } else if let census = try? queue.read({ db in try Self.census(of: table, db) }) {
                        one[table.name] = census
                    }
                }
                counted = one
            }
            damagedTables = damaged
            censuses = counted ?? [:]
        } catch let error as DatabaseError {
            throw PowerLogError(
                .database,
                "SQLite cannot read the database: \(error.message ?? error.description)"
            )
        } catch {
            throw PowerLogError(.database, "SQLite cannot read the database: \(error)")
        }
    }

    func close() { try? queue.close() }

    /// Every table (but SQLite's own) and its columns, in name order.
    ///
    /// The columns come from each table's `CREATE TABLE` text (``CreateTableColumns``), which SQLite has already
    /// parsed to open the file: one statement for the whole schema. Should any text not read plainly, the whole
    /// schema is asked of SQLite instead (`pragma_table_info`, one PRAGMA prepared per table, a fifth of `energy`'s
    /// instructions on a real log when it was the only way), so both ways give the same tables.
    static func schema(_ db: Database) throws -> [TableSchema] {
        var schemas: [TableSchema] = []
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT name, sql FROM sqlite_master
                WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
                """
        )
        while let row = try cursor.next() {
            // Values are read as DatabaseValue: a hostile `sqlite_master` may hold a blob where text belongs.
            let nameValue: DatabaseValue = row[0]
            let sqlValue: DatabaseValue = row[1]
            guard let name = TableRows.string(nameValue), case .string(let sql) = sqlValue.storage,
                let columns = CreateTableColumns.parse(sql), !columns.isEmpty
            else { return try schemaFromPragmas(db) }
            // A name twice: the pragma way merges them, so it is asked.
            guard schemas.last?.name != name else { return try schemaFromPragmas(db) }
            schemas.append(TableSchema(name: name, columns: columns))
        }
        return schemas
    }

    /// The schema as `pragma_table_info` gives it: one statement, but a PRAGMA prepared per table.
    static func schemaFromPragmas(_ db: Database) throws -> [TableSchema] {
        let cursor = try Row.fetchCursor(
            db,
            sql: """
                SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p
                WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid
                """
        )
        var schemas: [TableSchema] = []
        while let row = try cursor.next() {
            let tableValue: DatabaseValue = row[0]
            let columnValue: DatabaseValue = row[1]
            guard let table = TableRows.string(tableValue), let column = TableRows.string(columnValue)
            else { continue }
            if schemas.last?.name == table {
                schemas[schemas.count - 1].columns.append(column)
            } else {
                schemas.append(TableSchema(name: table, columns: [column]))
            }
        }
        return schemas
    }

    /// True when the file is not a whole number of pages, or shorter than the page count SQLite reads from its
    /// header (a truncated copy, a cut-off download, a gzip stream that ended early).
    private static func isCutShort(path: String, _ db: Database) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0,
            let pageSize = try? Int64.fetchOne(db, sql: "PRAGMA page_size"),
            let pageCount = try? Int64.fetchOne(db, sql: "PRAGMA page_count"), pageSize > 0
        else { return false }
        let size = Int64(status.st_size)
        let (expected, overflow) = pageSize.multipliedReportingOverflow(by: pageCount)
        return size % pageSize != 0 || overflow || size < expected
    }

    /// The census of every table in one read transaction, or nil when SQLite cannot count the rows of some table.
    ///
    /// That is damage inside a file of the right size (a fuzz finding of `apm-inspect fuzz` in CI): the caller then
    /// runs the costlier check on every table before reading any.
    ///
    /// Tables are counted ``censusBatch`` at a time, one `UNION ALL` statement per batch: preparing one statement
    /// per table cost more than the counting (GRDB's and SQLite's fixed cost of a statement, some 370 times). A batch
    /// SQLite refuses (a build with a lower limit on compound terms, or damage) is taken again one table at a time,
    /// so a table fails the census exactly when its own statement would.
    private static func censusInOneRead(_ schema: [TableSchema], _ queue: DatabaseQueue) -> [String:
        Census]?
    {
        try? queue.read { db in
            var censuses: [String: Census] = [:]
            censuses.reserveCapacity(schema.count)
            var start = 0
            while start < schema.count {
                let batch = schema[start..<min(schema.count, start + censusBatch)]
                start = batch.endIndex
                if let counted = try? census(ofBatch: batch, db) {
                    for (index, census) in counted { censuses[schema[index].name] = census }
                } else {
                    for table in batch { censuses[table.name] = try census(of: table, db) }
                }
            }
            return censuses
        }
    }

    /// How many tables one census statement counts.
    ///
    /// Small on purpose: GRDB's authorizer merges every column a statement reads into the statement's region, at a
    /// cost that grows with the tables already in it. On the real iOS 15 log `energy` cost 223 M instructions with
    /// batches of 10 (a batch of 100 spent 96 M in that merging alone), 221.8 M with 1 and 218.1 M with 4.
    static let censusBatch = 4

    /// The census of the tables of `batch` in one statement, by their index in the schema.
    private static func census(ofBatch batch: ArraySlice<TableSchema>, _ db: Database) throws -> [(
        Int, Census
    )] {
        var sql = ""
        for index in batch.indices {
            if index != batch.startIndex { sql += " UNION ALL " }
            sql += "SELECT \(index), " + censusColumns(of: batch[index])
        }
        var out: [(Int, Census)] = []
        out.reserveCapacity(batch.count)
        let cursor = try Row.fetchCursor(db, sql: sql)
        while let row = try cursor.next() {
            let indexValue: DatabaseValue = row[0]
            guard let index = TableRows.int64(indexValue).flatMap({ Int(exactly: $0) }),
                batch.indices.contains(index)
            else { continue }
            out.append((index, Self.census(row, from: 1)))
        }
        // Every term yields one row; fewer means text this reader did not write as it meant.
        guard out.count == batch.count else { throw PowerLogError(.database, "census rows missing") }
        return out
    }

    /// Whether a table's time span is asked for: only tables that can set the log's time range (periodic
    /// snapshots, point events, buckets) need more than their count.
    static func isTimed(_ table: String) -> Bool {
        switch PowerLogExtractor.entryType(of: table) {
        case "EventBackward", "EventPoint", "Aggregate": true
        default: false
        }
    }

    /// The first problem `PRAGMA quick_check` reports for `table`, or nil when it says ok; throws when SQLite cannot
    /// even check it.
    private static func damage(of table: String, _ db: Database) throws -> String? {
        let quoted = table.sqlStringLiteral
        // The check names its problems row by row and may then fail: keep the rows it gave before failing.
        var lines: [String] = []
        let cursor = try String.fetchCursor(db, sql: "PRAGMA quick_check(\(quoted))")
        do {
            while let line = try cursor.next(), lines.count < 16 { lines.append(line) }
        } catch {
            if lines.isEmpty { throw error }
        }
        if lines == ["ok"] { return nil }
        let problems = lines.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
        return problems.first.map(String.init) ?? "damaged"
    }

    /// The error for reading a table SQLite's check found damaged.
    private func refuseDamaged(_ table: TableSchema) -> PowerLogError? {
        guard let problem = damagedTables[table.name] else { return nil }
        return PowerLogError(
            .database,
            "table \(table.name) is damaged (SQLite's \(problem) fails on it); its rows are not read"
        )
    }

    /// The `file:` URI of `path` with `immutable=1`.
    ///
    /// The path is made absolute and every byte outside the unreserved set percent-encoded. SQLite reads URIs when built with `SQLITE_USE_URI` (Debian, Ubuntu, Apple); a build without
    /// takes the whole string as a file name, finds no such file and fails read-only, and the caller falls back to
    /// a private copy.
    static func immutableURI(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: 4096)
            if getcwd(&buffer, buffer.count) != nil {
                let directory = String(
                    decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                    as: UTF8.self
                )
                absolute = directory + "/" + path
            }
        }
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = Array("file:".utf8)
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.append(byte)
            default:
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self) + "?immutable=1"
    }

    /// The table `name`, or a newer `name_1_2`-style variant of it (the highest version when several exist).
    func table(_ name: String) -> TableSchema? {
        let lower = name.lowercased()
        if let exact = tables.first(where: { $0.name.lowercased() == lower }) { return exact }
        let variants = tables.filter { table in
            let candidate = table.name.lowercased()
            guard candidate.hasPrefix(lower + "_") else { return false }
            let suffix = candidate.dropFirst(lower.count + 1).split(
                separator: "_",
                omittingEmptySubsequences: false
            )
            return !suffix.isEmpty && suffix.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
        }
        return variants.max { $0.name < $1.name }
    }

    /// Rows of `table` with the `wanted` columns that exist (absent ones read as NULL), all at once: for the small
    /// tables (configuration, names, offsets) whose rows are sorted before use.
    ///
    /// - Returns: the rows (one value per wanted column, in order) and whether the row limit cut the table.
    func rows(of table: TableSchema, columns wanted: [String], limit: Int) throws(PowerLogError)
        -> TableRows
    {
        var out: [[DatabaseValue]] = []
        let truncated = try forEachRow(of: table, columns: wanted, limit: limit) { out.append($0) }
        return TableRows(table: table.name, names: wanted, rows: out, truncated: truncated)
    }

    /// Calls `body` with each row of `table` (one value per wanted column, in order; absent columns NULL) as SQLite
    /// steps through it: a table is never held whole, so a ten-million-row table costs what its records cost.
    ///
    /// - Returns: whether the row limit cut the table.
    func forEachRow(
        of table: TableSchema,
        columns wanted: [String],
        limit: Int,
        orderedByTime: Bool = false,
        _ body: ([DatabaseValue]) -> Void
    ) throws(PowerLogError) -> Bool {
        if let refusal = refuseDamaged(table) { throw refusal }
        let present = wanted.map { table.column($0) }
        let selected = present.compactMap { $0 }
        guard !selected.isEmpty else { return false }
        let list = selected.map(\.sqlIdentifier).joined(separator: ", ")
        let bound = max(0, limit)
        // The order the full analysis sorts in (the value read as a number); SQLite sorts in bounded memory, spilling
        // to its temporary files.
        let order =
            orderedByTime
            ? table.column("timestamp").map { " ORDER BY CAST(\($0.sqlIdentifier) AS REAL)" } : nil
        let sql =
            "SELECT \(list) FROM \(table.name.sqlIdentifier)\(order ?? "") LIMIT \(bound == Int.max ? bound : bound + 1)"
        do {
            return try queue.read { db -> Bool in
                var seen = 0
                let statement = try db.makeStatement(sql: sql)
                // Values are taken from the statement itself, column by column: `Row`'s generic subscript cost
                // more than SQLite's step on a numeric row.
                let handle = statement.sqliteStatement
                let columnCount = statement.columnCount
                let cursor = try Row.fetchCursor(statement)
                var full: [DatabaseValue] = []
                full.reserveCapacity(present.count)
                while try cursor.next() != nil {
                    if seen == bound { return true }
                    seen += 1
                    full.removeAll(keepingCapacity: true)
                    var k = 0
                    for column in present {
                        if column != nil, k < columnCount {
                            full.append(DatabaseValue(sqliteStatement: handle, index: CInt(clamping: k)))
                            k += 1
                        } else {
                            full.append(.null)
                        }
                    }
                    body(full)
                }
                return false
            }
        } catch {
            throw PowerLogError(.database, "cannot read table \(table.name): \(Self.describe(error))")
        }
    }

    /// Row count, raw time span and longest bucket of a table (`timestamp`, `timeInterval`); the span only for a
    /// table ``isTimed(_:)`` names.
    private static func census(of table: TableSchema, _ db: Database) throws -> Census {
        let sql = "SELECT " + censusColumns(of: table)
        guard let row = try Row.fetchOne(db, sql: sql) else { return Census(rows: 0) }
        return census(row, from: 0)
    }

    /// `COUNT(*)`, the span and the longest bucket (NULL where not asked) and the `FROM` clause, for `table`: four
    /// columns in every case, so that the terms of a `UNION ALL` line up.
    private static func censusColumns(of table: TableSchema) -> String {
        var sql = "COUNT(*)"
        if isTimed(table.name), let timestamp = table.column("timestamp") {
            let quoted = timestamp.sqlIdentifier
            sql += ", MIN(CAST(\(quoted) AS REAL)), MAX(CAST(\(quoted) AS REAL))"
            if let interval = table.column("timeInterval") {
                sql += ", MAX(CAST(\(interval.sqlIdentifier) AS REAL))"
            } else {
                sql += ", NULL"
            }
        } else {
            sql += ", NULL, NULL, NULL"
        }
        return sql + " FROM \(table.name.sqlIdentifier)"
    }

    /// The census in `row`'s four columns from `first` on.
    private static func census(_ row: Row, from first: Int) -> Census {
        let values = Array(row.databaseValues)
        return Census(
            rows: values.int64(first) ?? 0,
            first: values.double(first + 1),
            last: values.double(first + 2),
            longestInterval: values.double(first + 3)
        )
    }

    /// The census taken while opening (``censuses``); nil for a damaged table or one SQLite could not count.
    func census(of table: TableSchema) -> Census? {
        censuses[table.name]
    }

    /// What ``census(of:)`` found.
    struct Census {
        var rows: Int64
        var first: Double?
        var last: Double?
        var longestInterval: Double?
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? error.description }
        return "\(error)"
    }
}

/// Rows read from one table, addressed by the column names asked for (case-insensitively).
struct TableRows {
    let table: String
    let names: [String]
    let rows: [[DatabaseValue]]
    let truncated: Bool

    func index(_ name: String) -> Int? {
        let lower = name.lowercased()
        return names.firstIndex { $0.lowercased() == lower }
    }

    /// A number whatever the declared type: integers, reals and numeric text all read (an INTEGER column holds reals).
    static func double(_ value: DatabaseValue) -> Double? {
        switch value.storage {
        case .int64(let v): return Double(v)
        case .double(let v): return v.isFinite ? v : nil
        case .string(let s):
            return Double(s.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        case .null, .blob: return nil
        }
    }

    static func string(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .string(let s): return s
        case .int64(let v): return String(v)
        case .double(let v): return String(v)
        case .null, .blob: return nil
        }
    }

    /// An integer when the value is integral and within range (reals like `4.0` included).
    static func int64(_ value: DatabaseValue) -> Int64? {
        switch value.storage {
        case .int64(let v): return v
        default:
            guard let d = double(value) else { return nil }
            return Int64(exactly: d)
        }
    }

    static func uint64(_ value: DatabaseValue) -> UInt64? {
        switch value.storage {
        case .int64(let v): return UInt64(bitPattern: v)
        default:
            guard let d = double(value) else { return nil }
            return UInt64(exactly: d)
        }
    }
}

extension [DatabaseValue] {
    /// The value at `index`, NULL when out of range.
    func value(_ index: Int?) -> DatabaseValue {
        guard let index, index >= 0, index < count else { return .null }
        return self[index]
    }

    func double(_ index: Int?) -> Double? { TableRows.double(value(index)) }
    func string(_ index: Int?) -> String? { TableRows.string(value(index)) }
    func int64(_ index: Int?) -> Int64? { TableRows.int64(value(index)) }
    func uint64(_ index: Int?) -> UInt64? { TableRows.uint64(value(index)) }
    func bool(_ index: Int?) -> Bool? { double(index).map { $0 != 0 } }
}

extension String {
    /// The name as a double-quoted SQL identifier, embedded quotes doubled: a hostile file names its own tables
    /// and columns (GRDB's `quotedDatabaseIdentifier` does not escape).
    ///
    /// Built without Foundation's `replacingOccurrences`, which cost a tenth of `energy`'s instructions over the
    /// few hundred identifiers of a real database.
    var sqlIdentifier: String { Self.quoted(self, by: UInt8(ascii: "\"")) }

    /// The name as a single-quoted SQL string literal, embedded quotes doubled.
    var sqlStringLiteral: String { Self.quoted(self, by: UInt8(ascii: "'")) }

    private static func quoted(_ text: String, by quote: UInt8) -> String {
        var bytes: [UInt8] = [quote]
        bytes.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            bytes.append(byte)
            if byte == quote { bytes.append(quote) }
        }
        bytes.append(quote)
        return String(decoding: bytes, as: UTF8.self)
    }
}
