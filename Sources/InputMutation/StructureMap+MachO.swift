extension StructureMap {
    /// Most load commands walked per slice; a count past it costs a bounded walk, not one per claimed command.
    static let maxLoadCommands = 1024
    /// Most sections mapped per segment.
    static let maxSegmentSections = 256
    /// Most units mapped per DWARF section.
    static let maxDWARFUnits = 256
    /// Symbols whose nlist fields are mapped: a few are enough to reach the symbol table's checks.
    static let maxNlistEntries = 16

    /// A section of a slice as the map needs it: names to pick the DWARF ones, and its bytes in the file.
    private struct MachOSectionBytes {
        var segment: [UInt8]
        var name: [UInt8]
        var range: Range<Int>
    }

    /// The fat header and its `fat_arch` table, then each slice: header, load commands, segments and sections,
    /// LC_UUID, LC_SYMTAB and its first nlist entries, and the unit headers of `__debug_info` and `__debug_line`.
    ///
    /// Every field is read through ``ByteFields`` (nil past the end) and every walk is bounded by the bytes left
    /// and by a count, so a damaged file maps as far as it reads.
    mutating func addMachO(_ bytes: [UInt8]) {
        switch MachOMagic(bytes) {
        case .thin?: addMachOSlice(bytes, 0..<bytes.count)
        case .fat(let is64Bit, let count)?: addFatHeader(bytes, is64Bit: is64Bit, count: count)
        case nil: break
        }
    }

    /// A field as an `Int`, nil past the end or when it does not fit one.
    private static func field(_ bytes: [UInt8], _ offset: Int, _ width: Int, _ bigEndian: Bool) -> Int? {
        guard let value = ByteFields.read(bytes, at: offset, width: width, bigEndian: bigEndian),
            value <= UInt64(Int.max)
        else { return nil }
        return Int(value)
    }

    /// `nfat_arch`, then per entry its CPU type and the offset, size and alignment of its slice (big-endian).
    private mutating func addFatHeader(_ bytes: [UInt8], is64Bit: Bool, count: UInt32) {
        add(0..<4, .headerBytes)
        add(4..<8, .lengthField(width: 4, bigEndian: true))
        boundary(8)
        let entrySize = is64Bit ? 32 : 20
        let width = is64Bit ? 8 : 4
        var mapped: Set<Int> = []
        for index in 0..<Int(min(count, MachOMagic.maxFatArchitectures)) {
            let at = 8 + index * entrySize
            guard at + entrySize <= bytes.count else { break }
            let offsetAt = at + 8
            let sizeAt = offsetAt + width
            let alignAt = sizeAt + width
            boundary(at)
            add(at..<(at + 4), .headerBytes)
            add(offsetAt..<(offsetAt + width), .lengthField(width: width, bigEndian: true))
            add(sizeAt..<(sizeAt + width), .lengthField(width: width, bigEndian: true))
            add(alignAt..<(alignAt + 4), .lengthField(width: 4, bigEndian: true))
            boundary(at + entrySize)
            // A slice listed twice is mapped once; one outside the file not at all.
            guard let offset = Self.field(bytes, offsetAt, width, true), offset <= bytes.count,
                let size = Self.field(bytes, sizeAt, width, true), size <= bytes.count - offset,
                mapped.insert(offset).inserted
            else { continue }
            boundary(offset)
            boundary(offset + size)
            addMachOSlice(bytes, offset..<(offset + size))
        }
    }

    /// One thin Mach-O occupying `slice` of the file; offsets inside it (`fileoff`, `symoff`, section `offset`)
    /// count from its start.
    private mutating func addMachOSlice(_ bytes: [UInt8], _ slice: Range<Int>) {
        guard case .thin(let is64Bit, let bigEndian)? = MachOMagic(bytes, at: slice.lowerBound),
            slice.upperBound <= bytes.count
        else { return }
        let start = slice.lowerBound
        let length = Role.lengthField(width: 4, bigEndian: bigEndian)
        add(start..<(start + 4), .headerBytes)
        let headerSize = is64Bit ? 32 : 28
        guard headerSize <= slice.count else { return }
        add((start + 4)..<(start + 8), .headerBytes)
        add((start + 8)..<(start + 12), .headerBytes)
        add((start + 12)..<(start + 16), .headerBytes)
        add((start + 16)..<(start + 20), length)
        add((start + 20)..<(start + 24), length)
        add((start + 24)..<(start + 28), .headerBytes)
        boundary(start + headerSize)
        let commandsStart = start + headerSize
        let declared = Self.field(bytes, start + 20, 4, bigEndian) ?? 0
        let commandsEnd = commandsStart + min(declared, slice.upperBound - commandsStart)
        let count = min(Self.field(bytes, start + 16, 4, bigEndian) ?? 0, Self.maxLoadCommands)
        var sections: [MachOSectionBytes] = []
        var symtab: (symbols: Int, count: Int, strings: Int, stringsSize: Int)?
        var cursor = commandsStart
        var index = 0
        while index < count, commandsEnd - cursor >= 8 {
            index += 1
            boundary(cursor)
            add(cursor..<(cursor + 4), .headerBytes)
            add((cursor + 4)..<(cursor + 8), length)
            guard let command = Self.field(bytes, cursor, 4, bigEndian),
                let size = Self.field(bytes, cursor + 4, 4, bigEndian), size >= 8, size <= commandsEnd - cursor
            else { break }
            let body = cursor..<(cursor + size)
            switch command {
            case 0x1, 0x19:
                sections += addMachOSegment(bytes, body, slice, is64Bit: command == 0x19, bigEndian: bigEndian)
            case 0x1B where size >= 24:
                add((cursor + 8)..<(cursor + 24), .headerBytes)
            case 0x2 where size >= 24:
                for k in 0..<4 { add((cursor + 8 + 4 * k)..<(cursor + 12 + 4 * k), length) }
                if symtab == nil, let symbols = Self.field(bytes, cursor + 8, 4, bigEndian),
                    let count = Self.field(bytes, cursor + 12, 4, bigEndian),
                    let strings = Self.field(bytes, cursor + 16, 4, bigEndian),
                    let stringsSize = Self.field(bytes, cursor + 20, 4, bigEndian)
                {
                    symtab = (symbols, count, strings, stringsSize)
                }
            default:
                break
            }
            cursor = body.upperBound
            boundary(cursor)
        }
        if let symtab { addNlistEntries(bytes, slice, symtab, is64Bit: is64Bit, bigEndian: bigEndian) }
        for section in sections where section.segment == Array("__DWARF".utf8) {
            switch section.name {
            case Array("__debug_info".utf8):
                addDWARFUnits(bytes, section.range, bigEndian: bigEndian, lineTable: false)
            case Array("__debug_line".utf8):
                addDWARFUnits(bytes, section.range, bigEndian: bigEndian, lineTable: true)
            case Array("__debug_abbrev".utf8):
                add(section.range.prefix(16), .headerBytes)
                if !bigEndian { addDWARFAbbreviations(bytes, section.range) }
            default:
                break
            }
        }
    }

    /// LC_SEGMENT or LC_SEGMENT_64 in `body`: vmaddr, vmsize, fileoff, filesize and nsects, then per section its
    /// address, size, offset, relocations and type; returns the sections whose bytes lie in the slice.
    private mutating func addMachOSegment(
        _ bytes: [UInt8],
        _ body: Range<Int>,
        _ slice: Range<Int>,
        is64Bit: Bool,
        bigEndian: Bool
    ) -> [MachOSectionBytes] {
        let width = is64Bit ? 8 : 4
        let headerSize = is64Bit ? 72 : 56
        let sectionSize = is64Bit ? 80 : 68
        guard headerSize <= body.count else { return [] }
        let at = body.lowerBound
        let wide = Role.lengthField(width: width, bigEndian: bigEndian)
        let narrow = Role.lengthField(width: 4, bigEndian: bigEndian)
        for k in 0..<4 { add((at + 24 + width * k)..<(at + 24 + width * (k + 1)), wide) }
        let countAt = at + (is64Bit ? 64 : 48)
        add(countAt..<(countAt + 4), narrow)
        boundary(at + headerSize)
        let declared = Self.field(bytes, countAt, 4, bigEndian) ?? 0
        let count = min(declared, (body.count - headerSize) / sectionSize, Self.maxSegmentSections)
        var sections: [MachOSectionBytes] = []
        for index in 0..<count {
            let section = at + headerSize + index * sectionSize
            let addressAt = section + 32
            let sizeAt = addressAt + width
            let offsetAt = sizeAt + width
            let relocationsAt = offsetAt + 8
            let flagsAt = relocationsAt + 8
            boundary(section)
            add(addressAt..<(addressAt + width), wide)
            add(sizeAt..<(sizeAt + width), wide)
            add(offsetAt..<(offsetAt + 4), narrow)
            add(relocationsAt..<(relocationsAt + 4), narrow)
            add((relocationsAt + 4)..<(relocationsAt + 8), narrow)
            add(flagsAt..<(flagsAt + 1), .headerBytes)
            guard let offset = Self.field(bytes, offsetAt, 4, bigEndian), offset <= slice.count,
                let size = Self.field(bytes, sizeAt, width, bigEndian)
            else { continue }
            let first = slice.lowerBound + offset
            let last = first + min(size, slice.upperBound - first)
            boundary(first)
            boundary(last)
            sections.append(
                MachOSectionBytes(
                    segment: Self.fixedName(bytes, section + 16),
                    name: Self.fixedName(bytes, section),
                    range: first..<last
                )
            )
        }
        return sections
    }

    /// A 16-byte name field up to its first NUL (empty when cut off).
    private static func fixedName(_ bytes: [UInt8], _ offset: Int) -> [UInt8] {
        guard offset >= 0, offset <= bytes.count - 16 else { return [] }
        return Array(bytes[offset..<(offset + 16)].prefix { $0 != 0 })
    }

    /// The first nlist entries (`n_strx`, `n_type`, `n_sect`, `n_value`) and where the two tables start and end.
    private mutating func addNlistEntries(
        _ bytes: [UInt8],
        _ slice: Range<Int>,
        _ symtab: (symbols: Int, count: Int, strings: Int, stringsSize: Int),
        is64Bit: Bool,
        bigEndian: Bool
    ) {
        if symtab.strings <= slice.count {
            let strings = slice.lowerBound + symtab.strings
            boundary(strings)
            if symtab.stringsSize <= slice.upperBound - strings { boundary(strings + symtab.stringsSize) }
        }
        guard symtab.symbols <= slice.count else { return }
        let table = slice.lowerBound + symtab.symbols
        let entrySize = is64Bit ? 16 : 12
        let width = is64Bit ? 8 : 4
        boundary(table)
        for index in 0..<min(symtab.count, Self.maxNlistEntries) {
            let entry = table + index * entrySize
            guard entrySize <= slice.upperBound - entry else { break }
            add(entry..<(entry + 4), .lengthField(width: 4, bigEndian: bigEndian))
            add((entry + 4)..<(entry + 5), .headerBytes)
            add((entry + 5)..<(entry + 6), .headerBytes)
            add((entry + 8)..<(entry + 8 + width), .lengthField(width: width, bigEndian: bigEndian))
            boundary(entry + entrySize)
        }
    }

    /// The unit headers of a `__debug_info` or `__debug_line` section, walked by their `unit_length`: the length
    /// (after the 64-bit escape when there is one), the version, and what each version puts after it.
    mutating func addDWARFUnits(_ bytes: [UInt8], _ section: Range<Int>, bigEndian: Bool, lineTable: Bool) {
        var unit = section.lowerBound
        var units = 0
        while units < Self.maxDWARFUnits, section.upperBound - unit >= 4 {
            units += 1
            boundary(unit)
            guard let first = Self.field(bytes, unit, 4, bigEndian) else { break }
            let is64Bit = first == 0xFFFF_FFFF
            if is64Bit { add(unit..<(unit + 4), .headerBytes) }
            let lengthAt = is64Bit ? unit + 4 : unit
            let offsetWidth = is64Bit ? 8 : 4
            let header = lengthAt + offsetWidth
            add(lengthAt..<header, .lengthField(width: offsetWidth, bigEndian: bigEndian))
            guard header <= section.upperBound, let length = Self.field(bytes, lengthAt, offsetWidth, bigEndian),
                length <= section.upperBound - header
            else { break }
            let end = header + length
            if !bigEndian { lineTable ? addDWARFLineTable(bytes, unit..<end) : add(unit..<end, .dwarfUnit) }
            if let version = Self.field(bytes, header, 2, bigEndian), end - header >= 2 {
                add(header..<(header + 2), .headerBytes)
                if lineTable {
                    addLineTableHeader(bytes, header..<end, version: version, offsetWidth: offsetWidth, bigEndian)
                } else {
                    addInfoUnitHeader(header..<end, version: version, offsetWidth: offsetWidth, bigEndian)
                }
            }
            unit = end
            boundary(unit)
        }
    }

    /// After the version of a `__debug_info` unit: the abbreviation offset and address size (DWARF 2 to 4), or
    /// the unit type, address size and abbreviation offset (DWARF 5).
    private mutating func addInfoUnitHeader(
        _ unit: Range<Int>,
        version: Int,
        offsetWidth: Int,
        _ bigEndian: Bool
    ) {
        let at = unit.lowerBound + 2
        let abbrevAt = version >= 5 ? at + 2 : at
        let addressSizeAt = version >= 5 ? at + 1 : at + offsetWidth
        guard abbrevAt + offsetWidth <= unit.upperBound, addressSizeAt < unit.upperBound else { return }
        if version >= 5 { add(at..<(at + 1), .headerBytes) }
        add(abbrevAt..<(abbrevAt + offsetWidth), .lengthField(width: offsetWidth, bigEndian: bigEndian))
        add(addressSizeAt..<(addressSizeAt + 1), .lengthField(width: 1, bigEndian: bigEndian))
        boundary(max(abbrevAt + offsetWidth, addressSizeAt + 1))
    }

    /// After the version of a line table: the address size (DWARF 5), `header_length`, and the sizes the line
    /// program divides and indexes by (`line_range`, `opcode_base`); a boundary where the program starts.
    private mutating func addLineTableHeader(
        _ bytes: [UInt8],
        _ unit: Range<Int>,
        version: Int,
        offsetWidth: Int,
        _ bigEndian: Bool
    ) {
        var at = unit.lowerBound + 2
        if version >= 5 {
            guard at + 2 <= unit.upperBound else { return }
            add(at..<(at + 1), .lengthField(width: 1, bigEndian: bigEndian))
            at += 2
        }
        guard offsetWidth <= unit.upperBound - at else { return }
        add(at..<(at + offsetWidth), .lengthField(width: offsetWidth, bigEndian: bigEndian))
        let program = Self.field(bytes, at, offsetWidth, bigEndian)
        at += offsetWidth
        if let program, program <= unit.upperBound - at { boundary(at + program) }
        // minimum_instruction_length, maximum_operations_per_instruction (DWARF 4 on), default_is_stmt, line_base.
        let lineRangeAt = at + (version >= 4 ? 4 : 3)
        guard lineRangeAt + 2 <= unit.upperBound else { return }
        add(lineRangeAt..<(lineRangeAt + 1), .lengthField(width: 1, bigEndian: bigEndian))
        add((lineRangeAt + 1)..<(lineRangeAt + 2), .lengthField(width: 1, bigEndian: bigEndian))
    }
}
