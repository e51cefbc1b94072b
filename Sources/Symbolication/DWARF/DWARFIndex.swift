/// The functions, inline chains and line tables of one slice's DWARF, indexed once so that each lookup is a
/// binary search.
///
/// Built from ``DWARFSections`` (DWARF 2 to 5, 32- and 64-bit). Answers as llvm-symbolizer `--inlines` does: the
/// innermost inlined callee first, its file, line and column from the line table; each caller after it with the
/// call site its callee recorded (`DW_AT_call_file`/`call_line`/`call_column`); the concrete function last.
/// Names are the linkage name when the DIE, its abstract origin or its specification has one, else `DW_AT_name`.
///
/// Damaged DWARF does not cost what could be read: a unit that breaks part way keeps the DIEs before the break,
/// a line program keeps the sequences it completed, and each break is kept in ``issues``.
package struct DWARFIndex: AddressResolver {
    /// One frame of a lookup.
    ///
    /// `name` is nil when the address lies in a unit's line table but no subprogram of the
    /// DWARF covers it (the caller may take the name from the symbol table).
    package struct Frame: Sendable, Equatable {
        package var name: String?
        /// Distance from the start of the function (for the concrete function) or of the inlined range.
        package var offset: UInt64
        package var file: String?
        package var line: Int?
        package var column: Int?
        package var isInlined: Bool
    }

    struct Function: Sendable {
        var name: DWARFString?
        var isSubprogram: Bool
        /// The function this one was inlined into; -1 for a concrete function.
        var parent: Int32
        var unit: Int32
        var callFile: UInt64
        var callLine: UInt32
        var callColumn: UInt32
        var firstRange: Int32
        var rangeCount: Int32
        var lowPC: UInt64?
    }

    /// Non-overlapping address segments, sorted, each naming the innermost function (or unit) that covers it.
    struct SegmentMap: Sendable {
        var starts: [UInt64] = []
        var ends: [UInt64] = []
        var owners: [Int32] = []

        func owner(of address: UInt64) -> Int32? {
            var low = 0
            var high = starts.count
            while low < high {
                let middle = low + (high - low) / 2
                if starts[middle] <= address { low = middle + 1 } else { high = middle }
            }
            guard low > 0, address < ends[low - 1] else { return nil }
            return owners[low - 1]
        }
    }

    var functions: [Function] = []
    var functionRanges: [Range<UInt64>] = []
    var functionSegments = SegmentMap()
    var unitSegments = SegmentMap()
    /// Line table index of each unit, -1 when the unit has none.
    var unitLineTables: [Int32] = []
    var lineTables: [DWARFLineTable] = []
    /// Compilation directory of each unit, joined to relative file names.
    var unitCompDirs: [DWARFString?] = []
    /// The sections, kept so that names and paths are made only when a lookup needs them.
    var sections = DWARFSections()

    /// What could not be read: each a ``SymbolicationError`` naming the section and byte offset.
    package internal(set) var issues: [SymbolicationError] = []

    /// Number of units read (fully or in part).
    package var unitCount: Int { unitLineTables.count }
    /// Number of functions (concrete and inlined) that cover at least one address.
    package var functionCount: Int { functions.count }

    /// Builds the index.
    ///
    /// Throws only when nothing at all could be read from a non-empty `.debug_info`; a partly
    /// readable input gives an index of what was read, with the breaks in ``issues``.
    package init(_ sections: DWARFSections) throws(SymbolicationError) {
        if sections.isEmpty { return }
        var builder = DWARFIndexBuilder(sections: sections)
        try DWARFBuffers.with(sections) { buffers throws(SymbolicationError) in
            try builder.build(buffers)
        }
        self = builder.index
        self.sections = sections
    }

    init() {}

    package func locations(at fileAddress: UInt64) -> [SymbolicatedLocation] {
        let frames = frames(at: fileAddress)
        // Without the concrete function's name its inlined callees would end the chain and read as the function.
        guard frames.last?.name != nil else { return [] }
        return frames.compactMap { frame in
            guard let name = frame.name else { return nil }
            return SymbolicatedLocation(
                symbol: name,
                symbolOffset: frame.offset,
                file: frame.file,
                line: frame.line,
                column: frame.column,
                isInlined: frame.isInlined
            )
        }
    }

    /// The frames for `fileAddress`, innermost first; empty when the DWARF covers nothing there.
    package func frames(at fileAddress: UInt64) -> [Frame] {
        var references: [FrameReference] = []
        frameReferences(at: fileAddress, into: &references)
        return references.map { reference in
            Frame(
                name: name(ofFunction: reference.function),
                offset: reference.offset,
                file: reference.file.flatMap(fileName),
                line: positive(reference.line),
                column: positive(reference.column),
                isInlined: reference.isInlined
            )
        }
    }

    func fileName(_ index: UInt64, table: Int, unit: Int32) -> String? {
        var compDir = ""
        if unit >= 0, Int(unit) < unitCompDirs.count { compDir = unitCompDirs[Int(unit)]?.text(in: sections) ?? "" }
        return lineTables[table].fileName(index, compDir: compDir, sections: sections)
    }

    func lineTable(ofUnit unit: Int32) -> Int? {
        guard unit >= 0, Int(unit) < unitLineTables.count else { return nil }
        let table = Int(unitLineTables[Int(unit)])
        guard table >= 0, table < lineTables.count else { return nil }
        return table
    }

    func offset(of address: UInt64, in function: Function, concrete: Bool) -> UInt64 {
        if concrete, let low = function.lowPC, low <= address { return address - low }
        let first = Int(function.firstRange)
        let end = first + Int(function.rangeCount)
        guard first >= 0, end <= functionRanges.count else { return 0 }
        for index in first..<end where functionRanges[index].contains(address) {
            return address - functionRanges[index].lowerBound
        }
        return 0
    }

    private func positive(_ value: UInt32) -> Int? {
        value == 0 ? nil : Int(value)
    }
}
