import APMInspectCore

// The codes of the PowerLog reader (databases, their gzip copies and side files, archives of them, and the bounded
// summary). Each doc comment says what the code means and ends with an `Example:` line;
// Scripts/generate-diagnostics-doc.py turns them into docs/diagnostics.md.
extension Diagnostic.Code {
    // MARK: - Files

    /// A tar archive holds no PowerLog database: nothing in it could be read, and when an archive limit stopped the
    /// reading, that limit is named as the reason.
    /// Example: sysdiagnose.tar.gz: the archive holds no PowerLog database
    package static let powerlogNoDatabaseInArchive = Self("powerlog.no-database-in-archive")
    /// Two files read as one history come from different devices: their rows are merged all the same, so the
    /// figures mix the devices.
    /// Example: b.PLSQL is from device iPhone14,2, the history so far from iPhone15,3
    package static let powerlogOtherDevice = Self("powerlog.other-device")
    /// The gzip copy of a database ends before its stream does: the database was read as far as it goes and may
    /// miss its last pages.
    /// Example: a.PLSQL.gz: the gzip stream is cut off; the database may be incomplete
    package static let powerlogTruncatedGzip = Self("powerlog.truncated-gzip")
    /// The gzip stream goes on past the size the database declares: the rest is not decompressed, since the
    /// database cannot use it.
    /// Example: a.PLSQL.gz: the gzip stream goes on past the database's declared size of 4096 bytes; the rest was not decompressed
    package static let powerlogGzipPastDeclaredSize = Self("powerlog.gzip-past-declared-size")
    /// A hot rollback journal lies beside the database: its last transaction was cut off, and the database was
    /// read as it is (a journal is never applied to evidence), so the data may miss or half-hold that transaction.
    /// Example: a.PLSQL: a hot rollback journal (a.PLSQL-journal) lies beside the database: its last transaction was cut off, so the data may miss it or hold part of it; the database was read as it is, without applying the journal
    package static let powerlogHotJournal = Self("powerlog.hot-journal")
    /// A rollback journal lies beside the database without a journal header: it holds nothing to apply.
    /// Example: a.PLSQL: a rollback journal (a.PLSQL-journal) lies beside the database but is not hot (no journal header): nothing in it was applied
    package static let powerlogColdJournal = Self("powerlog.cold-journal")
    /// The database's write-ahead log holds its last transactions: they were replayed on a private copy, so the
    /// figures include them although the file alone lacks them.
    /// Example: a.PLSQL: its write-ahead log (a.PLSQL-wal) holds the last transactions: they were replayed on a private copy (nothing is written beside the database)
    package static let powerlogWALReplayed = Self("powerlog.wal-replayed")

    // MARK: - Tables

    /// A table has more rows than the per-table limit: only the first are read, so figures from it stop early.
    /// Example: a.PLSQL: only the first 5000000 rows were read (the row limit)
    package static let powerlogRowLimit = Self("powerlog.row-limit")
    /// Rows without the columns a figure needs (a timestamp, an energy, a node or app name) were skipped.
    /// Example: a.PLSQL: 3 rows without a timestamp, energy or node were skipped
    package static let powerlogRowsSkipped = Self("powerlog.rows-skipped")
    /// The database has no time offsets: wall-clock times are PowerLog's raw clock, which can be far off.
    /// Example: a.PLSQL: no time offsets: wall-clock times are PowerLog's raw clock, which can be minutes to years off
    package static let powerlogNoTimeOffsets = Self("powerlog.no-time-offsets")
    /// A table is damaged (SQLite's integrity checks fail on it): its rows are not read.
    /// Example: a.PLSQL: the table is damaged (SQLite's count fails on it); its rows are not read
    package static let powerlogDamagedTable = Self("powerlog.damaged-table")
    /// SQLite cannot count a table's rows: the table is listed with none.
    /// Example: a.PLSQL: the table cannot be counted
    package static let powerlogUncountableTable = Self("powerlog.uncountable-table")
    /// The database names no energy nodes: consumers are shown by their node IDs, not by name.
    /// Example: a.PLSQL: no node names: consumers are shown by node ID
    package static let powerlogNoNodeNames = Self("powerlog.no-node-names")

    // MARK: - Summary

    /// A summary's bound was reached (distinct apps, consumers, buckets, transitions): the rest is counted in the
    /// totals or left out as the message says; `--format json` reads every row.
    /// Example: a.PLSQL: more than 10 daily energy rows: 2 were left out (a summary's bound; --format json reads every row)
    package static let powerlogSummaryBound = Self("powerlog.summary-bound")
}
