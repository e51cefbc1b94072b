import Testing

@testable import Symbolication

/// Little-endian bytes for hand-made DWARF sections.
struct DWARFBytes {
    var bytes: [UInt8] = []
    var count: Int { bytes.count }

    mutating func u8(_ value: UInt64) { bytes.append(UInt8(truncatingIfNeeded: value)) }
    mutating func u16(_ value: UInt64) { for shift in [0, 8] { u8(value >> UInt64(shift)) } }
    mutating func u32(_ value: UInt64) { for shift in stride(from: 0, to: 32, by: 8) { u8(value >> UInt64(shift)) } }
    mutating func u64(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { u8(value >> UInt64(shift)) } }
    mutating func uleb(_ value: UInt64) {
        var rest = value
        repeat {
            var byte = UInt8(rest & 0x7f)
            rest >>= 7
            if rest != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while rest != 0
    }
    mutating func sleb(_ value: Int64) {
        var rest = value
        while true {
            let byte = UInt8(truncatingIfNeeded: rest & 0x7f)
            rest >>= 7
            let done = (rest == 0 && byte & 0x40 == 0) || (rest == -1 && byte & 0x40 != 0)
            bytes.append(done ? byte : byte | 0x80)
            if done { return }
        }
    }
    mutating func cString(_ text: String) {
        bytes.append(contentsOf: Array(text.utf8))
        bytes.append(0)
    }
    /// Patches a 4-byte little-endian length at `position`: the bytes after it up to the end.
    mutating func patchLength(at position: Int) {
        let length = UInt32(bytes.count - position - 4)
        for index in 0..<4 { bytes[position + index] = UInt8(truncatingIfNeeded: length >> UInt32(8 * index)) }
    }
}

/// A small program in the shape clang gives an optimised C file.
///
/// `render` at 0x1000..0x1040 with `scale` inlined
/// at 0x1010..0x1030 (called from line 12 column 38; 13 in DWARF 5, where the column is one implicit_const) and `clamp` inlined into `scale` at 0x1018..0x1020 (line 7
/// column 13), `helper` at 0x1040..0x1050 by its linkage name, and `split` in two ranges (0x1050..0x1058 and
/// 0x1100..0x1108). DWARF 4 uses strp, ref4, data4 high_pc and `.debug_ranges`; DWARF 5 uses strx1, addrx,
/// line_strp, implicit_const and `.debug_rnglists` through rnglistx.
enum DWARFSample {
    static func sections(version: Int) -> DWARFSections {
        var str = DWARFBytes()
        func strp(_ text: String) -> UInt64 {
            let offset = UInt64(str.count)
            str.cString(text)
            return offset
        }
        let names = ["sample.c", "/src", "render", "scale", "clamp", "helper", "_Z6helperv", "split"].map(strp)
        var strOffsets = DWARFBytes()
        strOffsets.u32(UInt64(4 + 4 * names.count))
        strOffsets.u16(5)
        strOffsets.u16(0)
        for offset in names { strOffsets.u32(offset) }
        var addr = DWARFBytes()
        let addresses: [UInt64] = [0x1000, 0x1010, 0x1018, 0x1040, 0x1050, 0x1100]
        addr.u32(UInt64(4 + 8 * addresses.count))
        addr.u16(5)
        addr.u8(8)
        addr.u8(0)
        for address in addresses { addr.u64(address) }
        let v5 = version >= 5

        // Abbreviations.
        var abbrev = DWARFBytes()
        func declare(_ code: UInt64, _ tag: UInt64, children: Bool, _ specs: [(UInt64, UInt64, Int64?)]) {
            abbrev.uleb(code)
            abbrev.uleb(tag)
            abbrev.u8(children ? 1 : 0)
            for (attribute, form, implicit) in specs {
                abbrev.uleb(attribute)
                abbrev.uleb(form)
                if let implicit { abbrev.sleb(implicit) }
            }
            abbrev.u8(0)
            abbrev.u8(0)
        }
        let stringForm: UInt64 = v5 ? 0x25 : 0x0e
        let addressForm: UInt64 = v5 ? 0x1b : 0x01
        if v5 {
            declare(
                1,
                0x11,
                children: true,
                [
                    (0x03, 0x25, nil), (0x1b, 0x25, nil), (0x10, 0x17, nil), (0x11, 0x1b, nil), (0x12, 0x06, nil),
                    (0x72, 0x17, nil), (0x73, 0x17, nil), (0x74, 0x17, nil),
                ]
            )
        } else {
            declare(
                1,
                0x11,
                children: true,
                [(0x03, 0x0e, nil), (0x1b, 0x0e, nil), (0x10, 0x17, nil), (0x11, 0x01, nil), (0x12, 0x06, nil)]
            )
        }
        declare(2, 0x2e, children: true, [(0x03, stringForm, nil), (0x11, addressForm, nil), (0x12, 0x06, nil)])
        declare(
            3,
            0x1d,
            children: true,
            [
                (0x31, 0x13, nil), (0x11, addressForm, nil), (0x12, 0x06, nil), (0x58, 0x0b, nil), (0x59, 0x0b, nil),
                (0x57, v5 ? 0x21 : 0x0b, v5 ? 13 : nil),
            ]
        )
        declare(4, 0x2e, children: false, [(0x03, stringForm, nil), (0x20, 0x0b, nil)])
        declare(
            5,
            0x2e,
            children: false,
            [(0x6e, stringForm, nil), (0x03, stringForm, nil), (0x11, addressForm, nil), (0x12, 0x06, nil)]
        )
        declare(6, 0x2e, children: false, [(0x03, stringForm, nil), (0x55, v5 ? 0x23 : 0x17, nil)])
        declare(7, 0x0b, children: true, [(0x11, addressForm, nil), (0x12, 0x06, nil)])  // lexical block
        abbrev.u8(0)

        // Range lists for `split`.
        var ranges = DWARFBytes()
        var rnglists = DWARFBytes()
        if v5 {
            rnglists.u32(0)
            rnglists.u16(5)
            rnglists.u8(8)
            rnglists.u8(0)
            rnglists.u32(1)  // one offset entry
            let base = rnglists.count
            rnglists.u32(UInt64(rnglists.count + 4 - base))
            rnglists.u8(1)  // DW_RLE_base_addressx
            rnglists.uleb(4)  // 0x1050
            rnglists.u8(4)  // DW_RLE_offset_pair
            rnglists.uleb(0)
            rnglists.uleb(8)
            rnglists.u8(3)  // DW_RLE_startx_length
            rnglists.uleb(5)
            rnglists.uleb(8)
            rnglists.u8(0)
            rnglists.patchLength(at: 0)
        } else {
            ranges.u64(0x50)  // relative to the unit's low_pc 0x1000
            ranges.u64(0x58)
            ranges.u64(.max)  // base address selection
            ranges.u64(0x1100)
            ranges.u64(0)
            ranges.u64(8)
            ranges.u64(0)
            ranges.u64(0)
        }

        // The unit.
        var info = DWARFBytes()
        info.u32(0)
        info.u16(UInt64(version))
        if v5 {
            info.u8(1)
            info.u8(8)
            info.u32(0)
        } else {
            info.u32(0)
            info.u8(8)
        }
        func name(_ index: Int) {
            if v5 { info.u8(UInt64(index)) } else { info.u32(names[index]) }
        }
        func address(_ index: Int) {
            if v5 { info.uleb(UInt64(index)) } else { info.u64(addresses[index]) }
        }
        info.uleb(1)
        name(0)
        name(1)
        info.u32(0)  // stmt_list
        address(0)
        info.u32(0x108)
        if v5 {
            info.u32(8)
            info.u32(8)
            info.u32(12)
        }
        // Abstract `scale` and `clamp`, referenced by the inlined subroutines.
        let scaleOffset = info.count
        info.uleb(4)
        name(3)
        info.u8(1)
        let clampOffset = info.count
        info.uleb(4)
        name(4)
        info.u8(1)
        // render [0x1000, 0x1040)
        info.uleb(2)
        name(2)
        address(0)
        info.u32(0x40)
        //   lexical block holding the inlined scale
        info.uleb(7)
        address(0)
        info.u32(0x40)
        //     scale inlined [0x1010, 0x1030), call site sample.c:12:38
        info.uleb(3)
        info.u32(UInt64(scaleOffset))
        address(1)
        info.u32(0x20)
        info.u8(v5 ? 0 : 1)  // call_file: DWARF 5 counts files from 0
        info.u8(12)
        if !v5 { info.u8(38) }
        //       clamp inlined [0x1018, 0x1020), call site sample.c:7:13 (implicit_const column in v5)
        info.uleb(3)
        info.u32(UInt64(clampOffset))
        address(2)
        info.u32(8)
        info.u8(v5 ? 0 : 1)
        info.u8(7)
        if !v5 { info.u8(13) }
        info.u8(0)  // end of clamp's children
        info.u8(0)  // end of scale's children
        info.u8(0)  // end of the lexical block
        info.u8(0)  // end of render
        // helper [0x1040, 0x1050) with a linkage name
        info.uleb(5)
        name(6)
        name(5)
        address(3)
        info.u32(0x10)
        // split in two ranges
        info.uleb(6)
        name(7)
        if v5 { info.uleb(0) } else { info.u32(0) }
        info.u8(0)  // end of the unit
        info.patchLength(at: 0)

        let line = lineProgram(version: version, lineStrp: v5 ? names[0] : 0, lineDir: v5 ? names[1] : 0)
        return DWARFSections(
            info: info.bytes,
            abbrev: abbrev.bytes,
            line: line.line,
            str: str.bytes,
            lineStr: v5 ? str.bytes : [],
            strOffsets: v5 ? strOffsets.bytes : [],
            addr: v5 ? addr.bytes : [],
            ranges: ranges.bytes,
            rnglists: rnglists.bytes
        )
    }

    /// The unit DIE of ``sections(version:)`` alone (`.debug_str` and `.debug_abbrev` as there): its range
    /// 0x1000..0x1108 and its line table, and no function.
    static func unitOnly(version: Int) -> (info: [UInt8], Void) {
        precondition(version < 5)
        let full = sections(version: version).info
        // Header (11 bytes) and the unit DIE: code, name, comp_dir, stmt_list, low_pc, high_pc.
        var info = DWARFBytes()
        info.bytes = Array(full[0..<(11 + 1 + 4 + 4 + 4 + 8 + 4)])
        info.u8(0)
        info.patchLength(at: 0)
        return (info.bytes, ())
    }

    /// The fixed part of a line table header (unit_length and header_length left 0 to patch) up to and including
    /// the standard opcode lengths; returns where header_length stands.
    static func lineHeaderStart(_ line: inout DWARFBytes, version: Int) -> Int {
        line.u32(0)
        line.u16(UInt64(version))
        if version >= 5 {
            line.u8(8)
            line.u8(0)
        }
        let headerLengthAt = line.count
        line.u32(0)
        line.u8(1)  // minimum_instruction_length
        if version >= 4 { line.u8(1) }
        line.u8(1)  // default_is_stmt
        line.u8(UInt64(UInt8(bitPattern: -5)))  // line_base
        line.u8(14)  // line_range
        line.u8(13)  // opcode_base
        for length: UInt64 in [0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1] { line.u8(length) }
        return headerLengthAt
    }

    /// Rows: 0x1000 line 10, 0x1010 line 6 col 22 (scale's body), 0x1018 line 2 col 11 (clamp's body),
    /// 0x1020 line 8, 0x1030 line 14, 0x1040 line 20, 0x1050 line 30, end 0x1058; a second sequence at 0x1100
    /// line 33, end 0x1108.
    static func lineProgram(version: Int, lineStrp: UInt64, lineDir: UInt64) -> (line: [UInt8], Void) {
        var line = DWARFBytes()
        let headerLengthAt = lineHeaderStart(&line, version: version)
        if version >= 5 {
            line.u8(1)
            line.uleb(1)  // DW_LNCT_path
            line.uleb(0x1f)  // line_strp
            line.uleb(1)
            line.u32(lineDir)
            line.u8(2)
            line.uleb(1)
            line.uleb(0x1f)
            line.uleb(2)  // DW_LNCT_directory_index
            line.uleb(0x0b)
            line.uleb(1)
            line.u32(lineStrp)
            line.u8(0)
        } else {
            line.u8(0)  // no include directories
            line.cString("sample.c")
            line.uleb(0)
            line.uleb(0)
            line.uleb(0)
            line.u8(0)
        }
        let headerEnd = line.count
        let headerLength = UInt32(headerEnd - headerLengthAt - 4)
        for index in 0..<4 {
            line.bytes[headerLengthAt + index] = UInt8(truncatingIfNeeded: headerLength >> UInt32(8 * index))
        }
        func setAddress(_ address: UInt64) {
            line.u8(0)
            line.uleb(9)
            line.u8(2)
            line.u64(address)
        }
        func row(advance: UInt64, line lineNumber: Int64, column: UInt64, from previous: inout Int64) {
            if advance > 0 {
                line.u8(2)
                line.uleb(advance)
            }
            line.u8(3)
            line.sleb(lineNumber - previous)
            previous = lineNumber
            line.u8(5)
            line.uleb(column)
            line.u8(1)  // copy
        }
        if version >= 5 {
            line.u8(4)
            line.uleb(0)
        }
        var current: Int64 = 1
        setAddress(0x1000)
        row(advance: 0, line: 10, column: 3, from: &current)
        row(advance: 0x10, line: 6, column: 22, from: &current)
        row(advance: 0x08, line: 2, column: 11, from: &current)
        row(advance: 0x08, line: 8, column: 5, from: &current)
        // A special opcode: address +0x10 and line +6 (14 → 8 + 6): opcode = (6 - (-5)) + 14 * 16 + 13 = 248.
        line.u8(248)
        current = 14
        row(advance: 0x10, line: 20, column: 1, from: &current)
        row(advance: 0x10, line: 30, column: 1, from: &current)
        line.u8(2)
        line.uleb(8)
        line.u8(0)
        line.uleb(1)
        line.u8(1)  // end_sequence at 0x1058
        current = 1
        if version >= 5 {
            line.u8(4)
            line.uleb(0)
        }
        setAddress(0x1100)
        row(advance: 0, line: 33, column: 2, from: &current)
        line.u8(2)
        line.uleb(8)
        line.u8(0)
        line.uleb(1)
        line.u8(1)
        line.patchLength(at: 0)
        return (line.bytes, ())
    }
}

@Suite struct DWARFIndexTests {
    @Test(arguments: [4, 5])
    func inlineChainsComeInnermostFirstWithCallSites(version: Int) throws {
        let index = try DWARFIndex(DWARFSample.sections(version: version))
        #expect(index.issues.isEmpty)
        let file = "/src/sample.c"
        let chain = index.locations(at: 0x101a)
        #expect(
            chain == [
                SymbolicatedLocation(
                    symbol: "clamp",
                    symbolOffset: 2,
                    file: file,
                    line: 2,
                    column: 11,
                    isInlined: true
                ),
                SymbolicatedLocation(
                    symbol: "scale",
                    symbolOffset: 0xa,
                    file: file,
                    line: 7,
                    column: 13,
                    isInlined: true
                ),
                SymbolicatedLocation(
                    symbol: "render",
                    symbolOffset: 0x1a,
                    file: file,
                    line: 12,
                    column: version >= 5 ? 13 : 38
                ),
            ]
        )
        let outer = index.locations(at: 0x1024)
        #expect(outer.map(\.symbol) == ["scale", "render"])
        #expect(outer.first?.line == 8)
        #expect(outer.last?.line == 12)
        #expect(
            index.locations(at: 0x1004) == [
                SymbolicatedLocation(symbol: "render", symbolOffset: 4, file: file, line: 10, column: 3)
            ]
        )
        // After the special opcode: 0x1030 is line 14.
        #expect(index.locations(at: 0x1031).first?.line == 14)
    }

    @Test(arguments: [4, 5])
    func linkageNamesWinAndRangeListsCoverEachPiece(version: Int) throws {
        let index = try DWARFIndex(DWARFSample.sections(version: version))
        #expect(index.locations(at: 0x1044).map(\.symbol) == ["_Z6helperv"])
        #expect(index.locations(at: 0x1044).first?.line == 20)
        #expect(index.locations(at: 0x1052).map(\.symbol) == ["split"])
        #expect(index.locations(at: 0x1106).first?.symbol == "split")
        #expect(index.locations(at: 0x1106).first?.line == 33)
        #expect(index.locations(at: 0x1106).first?.symbolOffset == 6)
        // Between the two pieces and past the end: nothing.
        #expect(index.locations(at: 0x1080).isEmpty)
        #expect(index.locations(at: 0x1108).isEmpty)
        #expect(index.locations(at: 0xfff).isEmpty)
    }

    @Test func anEmptySliceHasNothingToSay() throws {
        let index = try DWARFIndex(DWARFSections())
        #expect(index.locations(at: 0x1000).isEmpty)
        #expect(index.unitCount == 0)
    }
}
