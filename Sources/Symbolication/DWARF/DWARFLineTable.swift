/// One line program of `.debug_line` run to completion: its file names and its rows, grouped in sequences.
///
/// Rows are kept as the program emits them; a lookup finds the sequence holding the address and, in it, the last
/// row at or before the address — the row llvm-symbolizer and atos report.
struct DWARFLineTable: Sendable {
    struct Row: Sendable, Equatable {
        var address: UInt64
        var file: UInt32
        var line: UInt32
        var column: UInt32
    }

    struct Sequence: Sendable, Equatable {
        var lowPC: UInt64
        /// The address of the `DW_LNE_end_sequence` row: one past the last byte the sequence covers.
        var highPC: UInt64
        /// Rows `firstRow..<endRow` of `rows`, the end-of-sequence row last.
        var firstRow: Int
        var endRow: Int
    }

    struct File: Sendable, Equatable {
        var name: DWARFString?
        var directory: UInt64
    }

    var version: Int
    /// Files by the index the line program and `DW_AT_call_file` use: 0-based in DWARF 5, 1-based before (a nil
    /// entry 0 then).
    var files: [File?]
    var directories: [DWARFString?]
    var rows: [Row]
    /// Sorted by `lowPC`.
    var sequences: [Sequence]

    /// The path of file `index`, directory and compilation directory joined as llvm's `getFileNameByIndex` joins
    /// them for absolute paths: an absolute name stands alone; a relative directory (or none) goes under the
    /// compilation directory, except DWARF 5's directory 0, which is the compilation directory itself.
    func fileName(_ index: UInt64, compDir: String, sections: DWARFSections) -> String? {
        guard index < UInt64(files.count), let file = files[Int(index)] else { return nil }
        let name = file.name?.text(in: sections) ?? ""
        if name.utf8.first == UInt8(ascii: "/") { return name }
        var directory = ""
        if version >= 5 {
            if file.directory < UInt64(directories.count) {
                directory = directories[Int(file.directory)]?.text(in: sections) ?? ""
            }
        } else if file.directory > 0, file.directory <= UInt64(directories.count) {
            directory = directories[Int(file.directory - 1)]?.text(in: sections) ?? ""
        }
        var path = ""
        if version < 5 || file.directory != 0, !compDir.isEmpty, directory.utf8.first != UInt8(ascii: "/") {
            path = compDir
        }
        path = Self.appendPath(path, directory)
        return Self.appendPath(path, name)
    }

    /// POSIX path append as llvm's `sys::path::append`: empty parts skipped, one separator between parts.
    static func appendPath(_ path: String, _ component: String) -> String {
        let slash = UInt8(ascii: "/")
        guard let first = component.utf8.first else { return path }
        guard let last = path.utf8.last else { return component }
        if last == slash {
            guard first == slash else { return path + component }
            return path + String(decoding: component.utf8.drop { $0 == slash }, as: UTF8.self)
        }
        if first == slash { return path + component }
        return path + "/" + component
    }

    /// The row for `address`: the last row of its sequence whose address is at or before it.
    func row(for address: UInt64) -> Row? {
        // The last sequence starting at or before the address.
        var low = 0
        var high = sequences.count
        while low < high {
            let middle = low + (high - low) / 2
            if sequences[middle].lowPC <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let sequence = sequences[low - 1]
        guard address < sequence.highPC, sequence.endRow - sequence.firstRow >= 2 else { return nil }
        // upper_bound over rows firstRow+1 ..< endRow-1, then one back.
        var first = sequence.firstRow + 1
        var last = sequence.endRow - 1
        while first < last {
            let middle = first + (last - first) / 2
            if rows[middle].address <= address { first = middle + 1 } else { last = middle }
        }
        return rows[first - 1]
    }
}
