import APMInspectCore
import Testing

@testable import Symbolication

/// Hostile variants of the fixture dSYM, generated here: each must end without a trap within seconds, and the
/// index must hold no more than the input pays for.
///
/// The budget is counted, not measured as process memory: the rows and file and directory entries of the line
/// tables at most the bytes of `.debug_line` (each is read from bytes no other record reads, plus entry 0 of each
/// table), and the functions, ranges and segments at most a fixed multiple of `.debug_info`.
@Suite struct HostileDSYMGeneratorTests {
    /// Functions, ranges and segments per byte of `.debug_info` the index may keep: a one-byte DIE can add a
    /// function, its range and the segment boundaries around it.
    static let functionRecordsPerInfoByte = 8

    /// The fixture's file bytes and its slice's DWARF.
    static func fixture() throws -> (file: [UInt8], sections: DWARFSections) {
        let bytes = try MachOFile.readFile(MachOFixtures.dsym("Demo-arm64"))
        let slice = try #require(try MachOFile(bytes: bytes).slices.first)
        return (bytes, try slice.dwarfSections())
    }

    /// Builds the index of `sections` and checks it against the budget, the clock and the lookups' shape.
    private func expectWithinBudget(_ sections: DWARFSections, _ name: String) {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let index = try DWARFIndex(sections)
            #expect(
                index.lineRecordCount <= sections.line.count + 2 * index.lineTableCount,
                "\(name): \(index.lineRecordCount) line records from \(sections.line.count) bytes"
            )
            #expect(
                index.functionRecordCount <= Self.functionRecordsPerInfoByte * sections.info.count + 64,
                "\(name): \(index.functionRecordCount) function records from \(sections.info.count) bytes"
            )
            for issue in index.issues {
                #expect(issue.location?.keyPath?.hasPrefix("__DWARF.__debug_") == true, "\(name): \(issue)")
            }
            for address in stride(from: UInt64(0x1_0000_3ff0), to: 0x1_0000_4120, by: 4) {
                let frames = index.frames(at: address)
                #expect(frames.count <= DWARFIndexBuilder.maximumDepth + 1, "\(name)")
                let callersInlined = frames.dropLast().allSatisfy { $0.isInlined }
                #expect(callersInlined, "\(name)")
            }
        } catch {
            #expect(error.location?.byteOffset != nil, "\(name): \(error)")
        }
        #expect(clock.now - start < .seconds(10), "\(name) took \(clock.now - start)")
    }

    // MARK: - Variants of the Mach-O file

    /// The fixture cut at eight points of each section and of the file: a section whose size runs past the end.
    @Test func truncatedFilesAndSectionsStayInBudget() throws {
        let (file, _) = try Self.fixture()
        for eighth in 1..<8 {
            expectSlicesWithinBudget(Array(file.prefix(file.count * eighth / 8)), "file cut at \(eighth)/8")
        }
        for name in ["__debug_info", "__debug_line", "__debug_abbrev", "__debug_str", "__debug_line_str"] {
            guard let header = Self.sectionHeader(name, in: file) else {
                Issue.record("no section header \(name) in the fixture")
                continue
            }
            let size = Self.read(file, at: header + 40, size: 8)
            for eighth in 0..<8 {
                var cut = file
                Self.write(&cut, at: header + 40, size: 8, size * UInt64(eighth) / 8)
                expectSlicesWithinBudget(cut, "\(name) cut to \(eighth)/8")
            }
            var beyond = file
            Self.write(&beyond, at: header + 40, size: 8, UInt64(file.count) * 4)
            expectSlicesWithinBudget(beyond, "\(name) claims more than the file")
        }
    }

    /// Sections whose file ranges overlap: the line table read from `.debug_info`'s bytes and the reverse, the
    /// abbreviations from the strings.
    @Test func overlappingSectionsStayInBudget() throws {
        let (file, _) = try Self.fixture()
        let pairs = [
            ("__debug_line", "__debug_info"), ("__debug_info", "__debug_line"), ("__debug_abbrev", "__debug_str"),
            ("__debug_line", "__debug_line_str"), ("__debug_str_offs", "__debug_info"),
        ]
        for (moved, onto) in pairs {
            guard let from = Self.sectionHeader(moved, in: file), let to = Self.sectionHeader(onto, in: file) else {
                Issue.record("no section header \(moved) or \(onto) in the fixture")
                continue
            }
            var overlapped = file
            Self.write(&overlapped, at: from + 48, size: 4, Self.read(file, at: to + 48, size: 4))
            Self.write(&overlapped, at: from + 40, size: 8, Self.read(file, at: to + 40, size: 8))
            expectSlicesWithinBudget(overlapped, "\(moved) over \(onto)")
            // Half-way into the other section, keeping its own size.
            var shifted = file
            let offset = Self.read(file, at: to + 48, size: 4) + Self.read(file, at: to + 40, size: 8) / 2
            Self.write(&shifted, at: from + 48, size: 4, offset)
            expectSlicesWithinBudget(shifted, "\(moved) half over \(onto)")
        }
    }

    private func expectSlicesWithinBudget(_ bytes: [UInt8], _ name: String) {
        guard let file = try? MachOFile(bytes: bytes) else { return }
        for slice in file.slices {
            guard let sections = try? slice.dwarfSections() else { continue }
            expectWithinBudget(sections, name)
        }
    }

    // MARK: - Variants of the DWARF

    /// Counts far beyond the data: unit lengths, entry counts and the opcode base past what the bytes hold.
    @Test func countsFarBeyondTheDataStayInBudget() throws {
        let (_, sections) = try Self.fixture()
        let header = try #require(LineHeader(sections.line))
        for count: UInt64 in [0x7f, 1_000, 1_000_000, 1 << 40] {
            var line = DWARFBytes()
            line.bytes = Array(sections.line[..<header.directoryCount])
            line.uleb(count)
            line.bytes += sections.line[header.directoryCountEnd...]
            var variant = sections
            variant.line = line.bytes
            expectWithinBudget(variant, "directory count \(count) with its format kept")
        }
        for length: UInt64 in [0xffff_ffef, UInt64(sections.info.count) * 2] {
            var variant = sections
            Self.write(&variant.info, at: 0, size: 4, length)
            expectWithinBudget(variant, "unit length \(length)")
        }
        var opcodeBase = sections
        opcodeBase.line[header.opcodeBase] = 0xff
        expectWithinBudget(opcodeBase, "opcode base 255")
    }

    /// Offsets out of range: a unit's abbreviations, line table and references past their sections.
    @Test func offsetsOutOfRangeStayInBudget() throws {
        let (_, sections) = try Self.fixture()
        let far = UInt64(sections.line.count + sections.info.count + 0x1000)
        for stmtList in [UInt64(sections.line.count), far, 0xffff_fff0] {
            var variant = sections
            Self.appendUnit(&variant, abbreviations: Self.unitAbbreviation) { unit, _ in
                unit.u32(stmtList)
                unit.u64(0x1_0000_4000)
                unit.u64(0x100)
                unit.u8(0)
            }
            expectWithinBudget(variant, "stmt_list \(stmtList)")
        }
        var abbrevOffset = sections
        Self.appendUnit(&abbrevOffset, abbreviations: Self.unitAbbreviation) { _, _ in }
        Self.write(&abbrevOffset.info, at: sections.info.count + 6, size: 4, far)
        expectWithinBudget(abbrevOffset, "abbreviations past their section")
        var reference = sections
        Self.appendUnit(&reference, abbreviations: Self.unitAbbreviation + Self.originAbbreviation) { unit, _ in
            unit.u32(0)
            unit.u64(0x1_0000_4000)
            unit.u64(0x100)
            unit.uleb(2)
            unit.u32(far)  // abstract_origin past the unit
            unit.u64(0x1_0000_4010)
            unit.u64(0x10)
            unit.u8(0)
            unit.u8(0)
        }
        expectWithinBudget(reference, "abstract_origin past the section")
    }

    /// Cycles: a function its own abstract origin, two declarations each the other's specification, an inlined
    /// call whose origin is its caller.
    @Test func cyclesThroughOriginsAndSpecificationsStayInBudget() throws {
        let (_, sections) = try Self.fixture()
        var variant = sections
        Self.appendUnit(
            &variant,
            abbreviations: Self.unitAbbreviation + Self.originAbbreviation + Self.specAbbreviation
        ) {
            unit,
            start in
            unit.u32(0)
            unit.u64(0x1_0000_4000)
            unit.u64(0x100)
            let selfOrigin = UInt64(unit.count - start)
            unit.uleb(2)  // a subprogram whose abstract origin is itself
            unit.u32(selfOrigin)
            unit.u64(0x1_0000_4000)
            unit.u64(0x40)
            let inlined = UInt64(unit.count - start)
            unit.uleb(4)  // an inlined call whose origin is its own caller
            unit.u32(selfOrigin)
            unit.u64(0x1_0000_4008)
            unit.u64(0x8)
            unit.uleb(4)
            unit.u32(inlined)
            unit.u64(0x1_0000_4010)
            unit.u64(0x8)
            unit.u8(0)
            let first = UInt64(unit.count - start)
            unit.uleb(3)  // each the other's specification
            unit.u32(first + 21)
            unit.u64(0x1_0000_4040)
            unit.u64(0x20)
            unit.uleb(3)
            unit.u32(first)
            unit.u64(0x1_0000_4060)
            unit.u64(0x20)
            unit.u8(0)
        }
        expectWithinBudget(variant, "cycles")
    }

    /// Forms no DWARF version defines, in a unit and in a line-table entry format.
    @Test func unknownFormsStayInBudget() throws {
        let (_, sections) = try Self.fixture()
        for form: UInt64 in [0x00, 0x2d, 0x7f, 0x1f01, 0xffff] {
            var variant = sections
            var abbreviation = Self.unitAbbreviation
            abbreviation.removeLast(2)
            var extra = DWARFBytes()
            extra.uleb(0x03)
            extra.uleb(form)
            abbreviation += extra.bytes + [0, 0]
            Self.appendUnit(&variant, abbreviations: abbreviation) { unit, _ in
                unit.u32(0)
                unit.u64(0x1_0000_4000)
                unit.u64(0x100)
                unit.bytes += [0x41, 0x41, 0x41, 0, 0, 0, 0, 0]
            }
            expectWithinBudget(variant, "unit form \(form)")
            let header = try #require(LineHeader(sections.line))
            var line = sections
            line.line[header.firstDirectoryForm] = UInt8(truncatingIfNeeded: form & 0x7f)
            expectWithinBudget(line, "line entry form \(form & 0x7f)")
        }
    }

    /// A 64-bit unit reading the fixture's 32-bit line table, and a 32-bit unit reading a 64-bit table.
    @Test func mixedThirtyTwoAndSixtyFourBitDWARFStaysInBudget() throws {
        let (_, sections) = try Self.fixture()
        var variant = sections
        let abbrevOffset = UInt64(variant.abbrev.count)
        variant.abbrev += Self.unitAbbreviation
        var unit = DWARFBytes()
        unit.u32(0xffff_ffff)
        unit.u64(0)
        unit.u16(4)
        unit.u64(abbrevOffset)
        unit.u8(8)
        unit.uleb(1)
        unit.u64(0)  // stmt_list, 8 bytes in 64-bit DWARF
        unit.u64(0x1_0000_4000)
        unit.u64(0x100)
        unit.u8(0)
        Self.write(&unit.bytes, at: 4, size: 8, UInt64(unit.count - 12))
        variant.info += unit.bytes
        // sec_offset is 8 bytes in a 64-bit unit; the fixture's table it reads is 32-bit.
        expectWithinBudget(variant, "a 64-bit unit")
        var table = sections
        let tableOffset = UInt64(table.line.count)
        table.line += Self.lineTable(dwarf64: true, program: Self.denseProgram(rows: 64))
        Self.appendUnit(&table, abbreviations: Self.unitAbbreviation) { unit, _ in
            unit.u32(tableOffset)
            unit.u64(0x1_0000_4000)
            unit.u64(0x100)
            unit.u8(0)
        }
        expectWithinBudget(table, "a 64-bit line table")
    }

    /// Line programs with huge advances: addresses and lines wrapping, `fixed_advance_pc` and `const_add_pc` at
    /// their extremes.
    @Test func lineProgramsWithHugeAdvancesStayInBudget() throws {
        let (_, sections) = try Self.fixture()
        var program = DWARFBytes()
        program.bytes += [0, 9, 2]
        program.u64(0xffff_ffff_ffff_fff0)
        program.u8(2)
        program.uleb(UInt64.max)
        program.u8(3)
        program.sleb(Int64.max)
        program.u8(1)
        program.bytes += [0xff, 0xff, 8, 8, 8]  // special opcodes, const_add_pc
        program.u8(9)
        program.u16(0xffff)
        program.u8(3)
        program.sleb(Int64.min)
        program.u8(1)
        program.bytes += [0, 1, 1]
        var variant = sections
        let offset = UInt64(variant.line.count)
        variant.line += Self.lineTable(dwarf64: false, program: program.bytes)
        Self.appendUnit(&variant, abbreviations: Self.unitAbbreviation) { unit, _ in
            unit.u32(offset)
            unit.u64(0x1_0000_4000)
            unit.u64(0x100)
            unit.u8(0)
        }
        expectWithinBudget(variant, "huge advances")
    }

    /// Issue 38's N1: entries that read no bytes.
    ///
    /// A DWARF 5 line-table header whose directory and file entry formats are empty while the counts say
    /// 1,000,000. Passes once such entries are refused (the N1 fix).
    @Test func entriesThatReadNoBytesStayInBudget() throws {
        let (_, sections) = try Self.fixture()
        let header = try #require(LineHeader(sections.line))
        var line = DWARFBytes()
        line.bytes = Array(sections.line[..<header.directoryFormatCount])
        line.u8(0)
        line.uleb(1_000_000)
        line.u8(0)
        line.uleb(1_000_000)
        let headerEnd = line.count
        line.bytes += sections.line[header.programStart..<header.end]
        Self.write(&line.bytes, at: 8, size: 4, UInt64(headerEnd - 12))
        line.patchLength(at: 0)
        var variant = sections
        variant.line = line.bytes
        expectWithinBudget(variant, "empty entry formats, counts 1,000,000")
    }

    /// Issue 38's N2: many line-table headers sharing one line program.
    ///
    /// Each header runs the whole program. Passes once
    /// a program's bytes are read once (the N2 fix).
    @Test func headersSharingOneProgramStayInBudget() throws {
        let (_, sections) = try Self.fixture()
        let headers = 100
        let program = Self.denseProgram(rows: 2_000)
        let headerSize = Self.lineTable(dwarf64: false, program: []).count
        let programStart = headers * headerSize
        var line: [UInt8] = []
        for header in 0..<headers {
            var table = Self.lineTable(dwarf64: false, program: [])
            let offset = header * headerSize
            // This table runs to the end of the section and its program starts at the shared one.
            Self.write(&table, at: 0, size: 4, UInt64(programStart + program.count - offset - 4))
            Self.write(&table, at: 6, size: 4, UInt64(programStart - offset - 10))
            line += table
        }
        line += program
        var variant = sections
        variant.line = line
        // The fixture's unit reads table 0; one more unit per other table.
        for header in 1..<headers {
            Self.appendUnit(&variant, abbreviations: Self.unitAbbreviation) { unit, _ in
                unit.u32(UInt64(header * headerSize))
                unit.u64(0x1_0000_4000)
                unit.u64(0x100)
                unit.u8(0)
            }
        }
        expectWithinBudget(variant, "\(headers) headers sharing one program")
    }

    // MARK: - Builders

    /// Abbreviation 1: a compile unit with children (stmt_list sec_offset, low_pc addr, high_pc data8).
    static let unitAbbreviation: [UInt8] = [1, 0x11, 1, 0x10, 0x17, 0x11, 0x01, 0x12, 0x07, 0, 0]
    /// Abbreviation 2: a subprogram with children (abstract_origin ref4, low_pc, high_pc data8); 4: an inlined
    /// call, no children, the same attributes.
    static let originAbbreviation: [UInt8] = [
        2, 0x2e, 1, 0x31, 0x13, 0x11, 0x01, 0x12, 0x07, 0, 0, 4, 0x1d, 0, 0x31, 0x13, 0x11, 0x01, 0x12, 0x07, 0, 0,
    ]
    /// Abbreviation 3: a subprogram, no children (specification ref4, low_pc, high_pc data8).
    static let specAbbreviation: [UInt8] = [3, 0x2e, 0, 0x47, 0x13, 0x11, 0x01, 0x12, 0x07, 0, 0]

    /// Appends a DWARF 4 unit with its own abbreviations (ended here) after the fixture's; `body` writes the DIEs
    /// after the unit's abbreviation code 1, given the unit's start in `.debug_info`'s bytes it builds.
    static func appendUnit(
        _ sections: inout DWARFSections,
        abbreviations: [UInt8],
        _ body: (inout DWARFBytes, Int) -> Void
    ) {
        let abbrevOffset = UInt64(sections.abbrev.count)
        sections.abbrev += abbreviations + [0]
        var unit = DWARFBytes()
        unit.u32(0)
        unit.u16(4)
        unit.u32(abbrevOffset)
        unit.u8(8)
        unit.uleb(1)
        body(&unit, 0)
        unit.patchLength(at: 0)
        sections.info += unit.bytes
    }

    /// A DWARF 4 line table with no directories and no files (its smallest header) before `program`.
    static func lineTable(dwarf64: Bool, program: [UInt8]) -> [UInt8] {
        var header = DWARFBytes()
        header.bytes = [1, 1, 1, 0xfb, 14, 13, 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0]
        var table = DWARFBytes()
        if dwarf64 {
            table.u32(0xffff_ffff)
            table.u64(UInt64(2 + 8 + header.count + program.count))
            table.u16(4)
            table.u64(UInt64(header.count))
        } else {
            table.u32(UInt64(2 + 4 + header.count + program.count))
            table.u16(4)
            table.u32(UInt64(header.count))
        }
        return table.bytes + header.bytes + program
    }

    /// One sequence of `rows` rows, one special opcode each.
    static func denseProgram(rows: Int) -> [UInt8] {
        var program = DWARFBytes()
        program.bytes += [0, 9, 2]
        program.u64(0x1_0000_4000)
        program.bytes += Array(repeating: 0x20, count: rows)
        program.bytes += [0, 1, 1]
        return program.bytes
    }

    /// Byte positions of the parts of a 32-bit DWARF 5 line-table header at the start of `.debug_line`.
    struct LineHeader {
        var opcodeBase: Int
        var directoryFormatCount: Int
        var firstDirectoryForm: Int
        var directoryCount: Int
        var directoryCountEnd: Int
        var programStart: Int
        var end: Int

        init?(_ line: [UInt8]) {
            guard line.count > 20, HostileDSYMGeneratorTests.read(line, at: 4, size: 2) == 5 else { return nil }
            end = 4 + Int(HostileDSYMGeneratorTests.read(line, at: 0, size: 4))
            programStart = 12 + Int(HostileDSYMGeneratorTests.read(line, at: 8, size: 4))
            opcodeBase = 17
            directoryFormatCount = opcodeBase + Int(line[opcodeBase])
            var position = directoryFormatCount + 1
            func uleb() -> Int {
                var value = 0
                var shift = 0
                while position < line.count {
                    let byte = line[position]
                    position += 1
                    value |= Int(byte & 0x7f) << shift
                    shift += 7
                    if byte & 0x80 == 0 || shift > 56 { break }
                }
                return value
            }
            var forms: [Int] = []
            for _ in 0..<Int(line[directoryFormatCount]) {
                _ = uleb()
                forms.append(position)
                _ = uleb()
            }
            guard let first = forms.first, end <= line.count, programStart <= end else { return nil }
            firstDirectoryForm = first
            directoryCount = position
            _ = uleb()
            directoryCountEnd = position
        }
    }

    /// Where the `section_64` header of `__DWARF,name` starts in `file`.
    static func sectionHeader(_ name: String, in file: [UInt8]) -> Int? {
        func padded(_ text: String) -> [UInt8] {
            Array(text.utf8.prefix(16)) + Array(repeating: 0, count: 16 - min(16, text.utf8.count))
        }
        let pattern = padded(name) + padded("__DWARF")
        guard file.count >= pattern.count + 80 else { return nil }
        for start in 0...(file.count - 80) where file[start] == pattern[0] {
            if Array(file[start..<(start + 32)]) == pattern { return start }
        }
        return nil
    }

    static func read(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<size where offset + index < bytes.count {
            value |= UInt64(bytes[offset + index]) << (8 * UInt64(index))
        }
        return value
    }

    static func write(_ bytes: inout [UInt8], at offset: Int, size: Int, _ value: UInt64) {
        for index in 0..<size where offset + index < bytes.count {
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))
        }
    }
}
