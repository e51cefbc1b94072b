import ByteAccess

/// Runs one line program of `.debug_line` (DWARF 2 to 5) into a ``DWARFLineTable``.
struct DWARFLineProgram {
    /// Files and directories beyond any real table; the limit bounds what a crafted header can make us hold.
    static let maximumEntries = 1_000_000

    private struct Registers {
        var address: UInt64 = 0
        var file: UInt64 = 1
        var line: UInt64 = 1
        var column: UInt64 = 0
        var isStatement: Bool
        var opIndex: UInt64 = 0
    }

    /// Parses the program at `offset`.
    ///
    /// A program that breaks part way keeps the sequences completed before the break and reports the break in
    /// `issue`.
    ///
    /// `budget` is the count of `.debug_line` bytes that tables may still take; each table takes its own length.
    /// Tables of a real file never overlap, so the whole section is enough for all of them; headers that share
    /// one line program (or overlap in any other way) would otherwise each run it again, so the table that
    /// finds the budget spent is refused instead of read.
    static func parse(
        at offset: UInt64,
        sections: DWARFBuffers,
        addressSize unitAddressSize: Int,
        budget: inout Int
    ) throws(SymbolicationError) -> (table: DWARFLineTable, issue: SymbolicationError?) {
        var reader = sections.reader(.line)
        guard offset < UInt64(sections.line.count) else {
            throw DWARFSectionName.line.error("line table offset \(offset) is outside the section", at: 0)
        }
        try reader.seek(to: Int(offset))
        let start = reader.offset
        let (length, offsetSize) = try reader.initialLength()
        guard length <= UInt64(reader.remaining) else {
            throw reader.error("line table length \(length) runs past the end of the section", at: start)
        }
        let end = reader.offset + Int(length)
        guard end - start <= budget else {
            throw reader.error(
                "line table at \(start) (\(end - start) bytes) overlaps tables already read: more line table bytes "
                    + "than the section holds; not read",
                at: start,
                code: .limitExceeded
            )
        }
        budget -= end - start
        // The table's own bytes only: nothing it says can make the reader run into the next table.
        reader = DWARFReader(
            sections.line.slice(0..<end),
            section: .line,
            littleEndian: sections.isLittleEndian,
            offset: reader.offset
        )
        let version = Int(try reader.u16())
        guard (2...5).contains(version) else {
            throw reader.error("line table version \(version) is not 2 to 5", at: start)
        }
        var addressSize = unitAddressSize
        if version >= 5 {
            addressSize = Int(try reader.u8())
            _ = try reader.u8()  // segment selector size
            guard [1, 2, 4, 8].contains(addressSize) else {
                throw reader.error("line table address size \(addressSize)", at: start)
            }
        }
        let headerLength = try reader.unsigned(size: offsetSize)
        guard headerLength <= UInt64(reader.remaining) else {
            throw reader.error("line table header length \(headerLength) runs past the table", at: start)
        }
        let programStart = reader.offset + Int(headerLength)
        let minimumInstructionLength = UInt64(try reader.u8())
        var maximumOperations: UInt64 = 1
        if version >= 4 { maximumOperations = UInt64(try reader.u8()) }
        if maximumOperations == 0 { maximumOperations = 1 }
        let defaultIsStatement = try reader.u8() != 0
        let lineBase = Int64(try reader.i8())
        let lineRange = UInt64(try reader.u8())
        let opcodeBase = try reader.u8()
        guard lineRange > 0 else { throw reader.error("line table line_range is 0", at: start) }
        var standardLengths: [UInt8] = []
        if opcodeBase > 1 {
            for _ in 1..<opcodeBase { standardLengths.append(try reader.u8()) }
        }

        var directories: [DWARFString?] = []
        var files: [DWARFLineTable.File?] = []
        if version >= 5 {
            directories = try readEntries(&reader, sections: sections, offsetSize: offsetSize, end: programStart)
                .map(\.?.name)
            files = try readEntries(&reader, sections: sections, offsetSize: offsetSize, end: programStart)
        } else {
            files.append(nil)
            while true {
                let name = try reader.cStringRange()
                if name.isEmpty { break }
                guard directories.count < maximumEntries else {
                    throw reader.error("more than \(maximumEntries) directories", code: .limitExceeded)
                }
                directories.append(DWARFString(section: .line, offset: UInt64(name.lowerBound)))
            }
            while true {
                let name = try reader.cStringRange()
                if name.isEmpty { break }
                let directory = try reader.uleb()
                _ = try reader.uleb()
                _ = try reader.uleb()
                guard files.count < maximumEntries else {
                    throw reader.error("more than \(maximumEntries) files", code: .limitExceeded)
                }
                files.append(
                    .init(name: DWARFString(section: .line, offset: UInt64(name.lowerBound)), directory: directory)
                )
            }
        }

        var table = DWARFLineTable(version: version, files: [], directories: directories, rows: [], sequences: [])
        var issue: SymbolicationError?
        var sequenceStart: Int?
        do throws(SymbolicationError) {
            try reader.seek(to: programStart)
            var state = Registers(isStatement: defaultIsStatement)
            func emit(endSequence: Bool) {
                let row = DWARFLineTable.Row(
                    address: state.address,
                    file: UInt32(truncatingIfNeeded: min(state.file, UInt64(UInt32.max))),
                    line: UInt32(truncatingIfNeeded: min(state.line, UInt64(UInt32.max))),
                    column: UInt32(truncatingIfNeeded: min(state.column, UInt64(UInt32.max)))
                )
                if sequenceStart == nil { sequenceStart = table.rows.count }
                table.rows.append(row)
                if endSequence, let first = sequenceStart {
                    let low = table.rows[first].address
                    if low < row.address {
                        table.sequences.append(
                            .init(lowPC: low, highPC: row.address, firstRow: first, endRow: table.rows.count)
                        )
                    }
                    sequenceStart = nil
                }
            }
            func advance(operations: UInt64) {
                let step = minimumInstructionLength &* ((state.opIndex &+ operations) / maximumOperations)
                state.address &+= step
                state.opIndex = (state.opIndex &+ operations) % maximumOperations
            }
            while reader.offset < end {
                let opcode = try reader.u8()
                if opcode >= opcodeBase {
                    let adjusted = UInt64(opcode - opcodeBase)
                    advance(operations: adjusted / lineRange)
                    state.line = UInt64(
                        bitPattern: Int64(bitPattern: state.line) &+ lineBase &+ Int64(adjusted % lineRange)
                    )
                    emit(endSequence: false)
                    continue
                }
                switch opcode {
                case 0:
                    let length = try reader.uleb()
                    guard length > 0, length <= UInt64(reader.remaining) else {
                        throw reader.error("extended opcode length \(length) runs past the table")
                    }
                    let next = reader.offset + Int(length)
                    let sub = try reader.u8()
                    switch sub {
                    case 1:
                        emit(endSequence: true)
                        state = Registers(isStatement: defaultIsStatement)
                    case 2:
                        let size = Int(length) - 1
                        guard (1...8).contains(size) else {
                            throw reader.error("DW_LNE_set_address with a \(size)-byte operand")
                        }
                        state.address = try reader.unsigned(size: size)
                        state.opIndex = 0
                    case 3:
                        let name = try reader.cStringRange()
                        let directory = try reader.uleb()
                        guard files.count < maximumEntries else {
                            throw reader.error("more than \(maximumEntries) files", code: .limitExceeded)
                        }
                        files.append(
                            .init(
                                name: DWARFString(section: .line, offset: UInt64(name.lowerBound)),
                                directory: directory
                            )
                        )
                    default:
                        break
                    }
                    try reader.seek(to: next)
                case 1:
                    emit(endSequence: false)
                case 2:
                    advance(operations: try reader.uleb())
                case 3:
                    state.line = UInt64(bitPattern: Int64(bitPattern: state.line) &+ (try reader.sleb()))
                case 4:
                    state.file = try reader.uleb()
                case 5:
                    state.column = try reader.uleb()
                case 6:
                    state.isStatement.toggle()
                case 7, 10, 11:
                    break
                case 8:
                    advance(operations: UInt64(255 - opcodeBase) / lineRange)
                case 9:
                    state.address &+= UInt64(try reader.u16())
                    state.opIndex = 0
                default:
                    let index = Int(opcode) - 1
                    let count = index < standardLengths.count ? Int(standardLengths[index]) : 0
                    for _ in 0..<count { _ = try reader.uleb() }
                }
            }
        } catch {
            issue = error
        }
        _ = sequenceStart
        table.sequences.sort { ($0.lowPC, $0.firstRow) < ($1.lowPC, $1.firstRow) }
        table.files = files
        return (table, issue)
    }

    /// DWARF 5 directory or file entries: a format (content type, form pairs) then the entries.
    ///
    /// Every entry must read at least one byte of the header (`end` is where the header ends), so the entries
    /// held are bounded by the header's size: a format with no fields, or only fields that read nothing, cannot
    /// make a few bytes say a million entries.
    private static func readEntries(
        _ reader: inout DWARFReader,
        sections: DWARFBuffers,
        offsetSize: Int,
        end: Int
    ) throws(SymbolicationError) -> [DWARFLineTable.File?] {
        let formatStart = reader.offset
        let formatCount = Int(try reader.u8())
        var format: [(content: UInt64, form: UInt64)] = []
        for _ in 0..<formatCount { format.append((try reader.uleb(), try reader.uleb())) }
        let count = try reader.uleb()
        guard count <= UInt64(maximumEntries) else {
            throw reader.error("\(count) line table entries, more than \(maximumEntries)", code: .limitExceeded)
        }
        let bytesLeft = UInt64(max(0, end - reader.offset))
        guard count == 0 || !format.isEmpty else {
            throw reader.error(
                "\(count) line table entries with an empty entry format (entries that read no bytes)",
                at: formatStart,
                code: .limitExceeded
            )
        }
        guard count <= bytesLeft else {
            throw reader.error(
                "\(count) line table entries cannot fit in the \(bytesLeft) bytes left of the header",
                at: formatStart,
                code: .limitExceeded
            )
        }
        let decoder = DWARFFormDecoder(version: 5, addressSize: 8, offsetSize: offsetSize, unitOffset: 0)
        var entries: [DWARFLineTable.File?] = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            let entryStart = reader.offset
            var entry = DWARFLineTable.File(name: nil, directory: 0)
            for (content, form) in format {
                let value = try decoder.read(form, implicitConst: 0, from: &reader)
                switch content {
                case 1:  // DW_LNCT_path
                    switch value {
                    case .inlineString(let range):
                        entry.name = DWARFString(section: .line, offset: UInt64(range.lowerBound))
                    case .strp(let offset): entry.name = DWARFString(section: .str, offset: offset)
                    case .lineStrp(let offset): entry.name = DWARFString(section: .lineStr, offset: offset)
                    default: break
                    }
                case 2:  // DW_LNCT_directory_index
                    entry.directory = value.constant ?? 0
                default:
                    break
                }
            }
            guard reader.offset > entryStart, reader.offset <= end else {
                throw reader.error(
                    reader.offset > end
                        ? "a line table entry runs past the end of the header"
                        : "a line table entry reads no bytes (its format's forms are all empty)",
                    at: entryStart,
                    code: .limitExceeded
                )
            }
            entries.append(entry)
        }
        return entries
    }
}
