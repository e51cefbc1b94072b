extension DWARFIndex {
    /// Rows, file entries and directory entries the line tables hold.
    ///
    /// Each of them is read from bytes of `.debug_line` that no other record reads (a row from at least its
    /// opcode, an entry from at least one byte of its fields), so a reader that reads each byte once holds at most
    /// the section's size plus the unused entry 0 of each table: the budget the hostile-input tests and the
    /// fuzzers check, counted rather than guessed from the process's memory.
    package var lineRecordCount: Int {
        lineTables.reduce(0) { $0 + $1.rows.count + $1.files.count + $1.directories.count }
    }

    /// Line programs run (each unit sharing one offset shares its table).
    package var lineTableCount: Int { lineTables.count }

    /// Functions, their address ranges and the segments the lookups search: the part of the index that grows
    /// with `.debug_info`.
    package var functionRecordCount: Int {
        functions.count + functionRanges.count + functionSegments.starts.count + unitSegments.starts.count
    }
}
