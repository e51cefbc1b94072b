import APMInspectCore
import ByteAccess
import Testing

@testable import Symbolication

/// Damaged and crafted DWARF: every case must end in an index of what could be read or a ``SymbolicationError``
/// naming the section and byte offset, never a trap, a hang or memory out of proportion to the input.
@Suite struct DWARFHostileTests {
    /// Every issue points inside the section it names.
    private func expectLocated(_ issues: [SymbolicationError], in sections: DWARFSections) {
        let sizes: [String: Int] = [
            "__DWARF.__debug_info": sections.info.count, "__DWARF.__debug_abbrev": sections.abbrev.count,
            "__DWARF.__debug_line": sections.line.count,
        ]
        for issue in issues {
            let keyPath = issue.location?.keyPath ?? ""
            let offset = issue.location?.byteOffset ?? -1
            #expect(keyPath.hasPrefix("__DWARF.__debug_"), "\(issue)")
            if let size = sizes[keyPath] { #expect(offset >= 0 && offset <= size, "\(issue)") }
        }
    }

    @Test(arguments: [4, 5])
    func everyTruncationOfEachSectionIsReadOrRefused(version: Int) {
        let whole = DWARFSample.sections(version: version)
        let parts: [WritableKeyPath<DWARFSections, [UInt8]>] = [\.info, \.abbrev, \.line, \.rnglists, \.addr]
        for part in parts {
            for length in 0..<whole[keyPath: part].count {
                var cut = whole
                cut[keyPath: part] = Array(whole[keyPath: part].prefix(length))
                do {
                    let index = try DWARFIndex(cut)
                    expectLocated(index.issues, in: cut)
                    _ = index.locations(at: 0x101a)
                } catch {
                    #expect(error.code == .malformedDWARF || error.code == .limitExceeded)
                    expectLocated([error], in: cut)
                }
            }
        }
    }

    @Test func aUnitCutShortKeepsTheFunctionsBeforeTheCut() throws {
        let whole = DWARFSample.sections(version: 4)
        // Cut inside `helper` (after render's subtree) but keep the unit's declared length: the walk runs out of
        // bytes part way, reports it, and keeps render.
        var cut = whole
        cut.info = Array(whole.info.prefix(whole.info.count - 12))
        // The unit length now runs past the section: the only unit is refused, so the whole input is.
        #expect(throws: SymbolicationError.self) { try DWARFIndex(cut) }
        // Same cut with the unit length patched to the new size: a partial unit.
        var patched = DWARFBytes()
        patched.bytes = cut.info
        patched.patchLength(at: 0)
        cut.info = patched.bytes
        let partial = try DWARFIndex(cut)
        #expect(partial.issues.count == 1)
        #expect(partial.locations(at: 0x101a).map(\.symbol) == ["clamp", "scale", "render"])
        #expect(partial.issues.first?.location?.keyPath == "__DWARF.__debug_info")
    }

    @Test(arguments: [4, 5])
    func everyByteOfTheSampleSetToEachExtremeIsSurvived(version: Int) {
        let whole = DWARFSample.sections(version: version)
        let parts: [WritableKeyPath<DWARFSections, [UInt8]>] = [\.info, \.abbrev, \.line]
        for part in parts {
            for position in whole[keyPath: part].indices {
                for value: UInt8 in [0x00, 0x7f, 0x80, 0xff] {
                    var bent = whole
                    bent[keyPath: part][position] = value
                    if let index = try? DWARFIndex(bent) {
                        expectLocated(index.issues, in: bent)
                        for address in stride(from: UInt64(0xff8), to: 0x1110, by: 8) {
                            let frames = index.frames(at: address)
                            #expect(frames.count <= DWARFIndexBuilder.maximumDepth + 1)
                            #expect(frames.dropLast().allSatisfy { $0.isInlined })
                        }
                    }
                }
            }
        }
    }

    @Test func nestingPastTheDepthLimitIsALimitNotAStackOverflow() throws {
        var abbrev = DWARFBytes()
        abbrev.uleb(1)
        abbrev.uleb(0x11)
        abbrev.u8(1)
        abbrev.u8(0)
        abbrev.u8(0)
        abbrev.uleb(2)
        abbrev.uleb(0x0b)  // lexical block with children
        abbrev.u8(1)
        abbrev.u8(0)
        abbrev.u8(0)
        abbrev.u8(0)
        var info = DWARFBytes()
        info.u32(0)
        info.u16(4)
        info.u32(0)
        info.u8(8)
        info.uleb(1)
        for _ in 0..<100_000 { info.uleb(2) }
        info.patchLength(at: 0)
        let index = try DWARFIndex(DWARFSections(info: info.bytes, abbrev: abbrev.bytes))
        #expect(index.issues.map(\.code) == [.limitExceeded])
        #expect(index.issues.first?.location?.byteOffset == 11 + 1 + DWARFIndexBuilder.maximumDepth - 1)
    }

    @Test func overlongLEB128IsMalformedAtItsFirstByte() throws {
        var bytes = DWARFBytes()
        for _ in 0..<10 { bytes.u8(0x80) }
        bytes.u8(0)
        bytes.bytes.withBorrowedBytes { raw in
            var reader = DWARFReader(raw, section: .info, littleEndian: true)
            #expect(throws: SymbolicationError.self) { try reader.uleb() }
            var signed = DWARFReader(raw, section: .info, littleEndian: true)
            #expect(throws: SymbolicationError.self) { try signed.sleb() }
        }
        // 2^64 does not fit; 2^64 - 1 does.
        var fits = DWARFBytes()
        fits.uleb(.max)
        let value = try fits.bytes.withBorrowedBytes { raw in
            var reader = DWARFReader(raw, section: .info, littleEndian: true)
            return try reader.uleb()
        }
        #expect(value == .max)
        let tooBig: [UInt8] = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]
        tooBig.withBorrowedBytes { raw in
            var reader = DWARFReader(raw, section: .line, littleEndian: true)
            do throws(SymbolicationError) {
                _ = try reader.uleb()
                Issue.record("2^64 read as a 64-bit value")
            } catch {
                #expect(error.location == SourceLocation(byteOffset: 0, keyPath: "__DWARF.__debug_line"))
            }
        }
    }

    @Test func aReservedUnitLengthIsRefusedWithItsOffset() {
        var info = DWARFBytes()
        info.u32(0xffff_fff0)
        info.u16(4)
        do {
            _ = try DWARFIndex(DWARFSections(info: info.bytes, abbrev: [0]))
            Issue.record("a reserved unit length was accepted")
        } catch {
            #expect(error.code == .malformedDWARF)
            #expect(error.location?.byteOffset == 0)
        }
    }

    @Test func a64BitDWARFUnitIsRead() throws {
        // The DWARF 4 sample re-laid in the 64-bit format: 0xffffffff, an 8-byte length, an 8-byte abbreviation
        // offset; strp, sec_offset and ref_addr grow to 8 bytes, so rebuild only the unit DIE and one function.
        var abbrev = DWARFBytes()
        abbrev.uleb(1)
        abbrev.uleb(0x11)
        abbrev.u8(1)
        abbrev.uleb(0x11)
        abbrev.uleb(0x01)
        abbrev.uleb(0x12)
        abbrev.uleb(0x06)
        abbrev.u8(0)
        abbrev.u8(0)
        abbrev.uleb(2)
        abbrev.uleb(0x2e)
        abbrev.u8(0)
        abbrev.uleb(0x03)
        abbrev.uleb(0x0e)  // strp: 8 bytes in 64-bit DWARF
        abbrev.uleb(0x11)
        abbrev.uleb(0x01)
        abbrev.uleb(0x12)
        abbrev.uleb(0x06)
        abbrev.u8(0)
        abbrev.u8(0)
        abbrev.u8(0)
        var info = DWARFBytes()
        info.u32(0xffff_ffff)
        info.u64(0)
        info.u16(4)
        info.u64(0)
        info.u8(8)
        info.uleb(1)
        info.u64(0x2000)
        info.u32(0x100)
        info.uleb(2)
        info.u64(0)
        info.u64(0x2000)
        info.u32(0x20)
        info.u8(0)
        let length = UInt64(info.count - 12)
        for index in 0..<8 { info.bytes[4 + index] = UInt8(truncatingIfNeeded: length >> UInt64(8 * index)) }
        var str = DWARFBytes()
        str.cString("wide")
        let index = try DWARFIndex(DWARFSections(info: info.bytes, abbrev: abbrev.bytes, str: str.bytes))
        #expect(index.issues.isEmpty)
        #expect(index.locations(at: 0x2010) == [SymbolicatedLocation(symbol: "wide", symbolOffset: 0x10)])
    }

    @Test func originCyclesEndAndUnknownAbbreviationsAreNamed() throws {
        // An inlined subroutine whose abstract origin is itself, then a DIE with an abbreviation code not in the
        // table.
        var abbrev = DWARFBytes()
        for (code, tag, children) in [(UInt64(1), UInt64(0x11), true), (2, 0x1d, false)] {
            abbrev.uleb(code)
            abbrev.uleb(tag)
            abbrev.u8(children ? 1 : 0)
            if code == 2 {
                abbrev.uleb(0x31)
                abbrev.uleb(0x13)
                abbrev.uleb(0x11)
                abbrev.uleb(0x01)
                abbrev.uleb(0x12)
                abbrev.uleb(0x06)
            }
            abbrev.u8(0)
            abbrev.u8(0)
        }
        abbrev.u8(0)
        var info = DWARFBytes()
        info.u32(0)
        info.u16(4)
        info.u32(0)
        info.u8(8)
        info.uleb(1)
        let selfOffset = info.count
        info.uleb(2)
        info.u32(UInt64(selfOffset))
        info.u64(0x3000)
        info.u32(0x10)
        let badOffset = info.count
        info.uleb(9)
        info.u8(0)
        info.patchLength(at: 0)
        let index = try DWARFIndex(DWARFSections(info: info.bytes, abbrev: abbrev.bytes))
        #expect(index.functionCount == 1)
        #expect(index.frames(at: 0x3004).map(\.name) == [nil])
        #expect(index.issues.count == 1)
        #expect(index.issues.first?.location?.byteOffset == badOffset)
        #expect(index.issues.map(\.code) == [.malformedDWARF])
    }

    @Test func aRangeListSharedByEveryDIECannotMultiplyMemory() throws {
        // 2,000 subprograms all pointing at one 2,000-entry list: 4 million ranges from 60 KB. The budget keeps
        // ranges in proportion to the input.
        var ranges = DWARFBytes()
        for entry in 0..<2_000 {
            ranges.u64(UInt64(entry * 16))
            ranges.u64(UInt64(entry * 16 + 8))
        }
        ranges.u64(0)
        ranges.u64(0)
        var abbrev = DWARFBytes()
        abbrev.uleb(1)
        abbrev.uleb(0x11)
        abbrev.u8(1)
        abbrev.u8(0)
        abbrev.u8(0)
        abbrev.uleb(2)
        abbrev.uleb(0x2e)
        abbrev.u8(0)
        abbrev.uleb(0x55)
        abbrev.uleb(0x17)
        abbrev.u8(0)
        abbrev.u8(0)
        abbrev.u8(0)
        var info = DWARFBytes()
        info.u32(0)
        info.u16(4)
        info.u32(0)
        info.u8(8)
        info.uleb(1)
        for _ in 0..<2_000 {
            info.uleb(2)
            info.u32(0)
        }
        info.u8(0)
        info.patchLength(at: 0)
        let sections = DWARFSections(info: info.bytes, abbrev: abbrev.bytes, ranges: ranges.bytes)
        let index = try DWARFIndex(sections)
        let inputBytes = sections.info.count + sections.ranges.count
        #expect(index.functionRanges.count <= 4 * inputBytes + 4_096)
        #expect(index.issues.contains { $0.code == .limitExceeded })
        #expect(index.frames(at: 0x10).count == 1)
    }

    @Test func unitsSharingALineTableParseItOnceWhateverTheirDirectories() throws {
        // 500 units naming one line table, each with a compilation directory at a different offset inside one
        // 4,000-byte string: one parse, and no directory text made until a lookup asks.
        var sections = DWARFSample.sections(version: 4)
        let longString = UInt64(sections.str.count)
        sections.str += Array(repeating: UInt8(ascii: "d"), count: 4_000) + [0]
        let unit = DWARFSample.unitOnly(version: 4).info
        var info: [UInt8] = []
        for position in 0..<500 {
            var copy = unit
            let offset = UInt32(longString) + UInt32(position)
            for index in 0..<4 { copy[16 + index] = UInt8(truncatingIfNeeded: offset >> UInt32(8 * index)) }
            info += copy
        }
        sections.info = info
        let index = try DWARFIndex(sections)
        #expect(index.unitCount == 500)
        #expect(index.lineTables.count == 1)
        #expect(index.issues.isEmpty)
        // The last unit added wins the shared range; its directory is the shortest tail of the string.
        let file = try #require(index.frames(at: 0x1004).first?.file)
        #expect(file == String(repeating: "d", count: 3_501) + "/sample.c")
    }

    @Test func thousandsOfBrokenUnitsKeepABoundedListOfIssues() throws {
        // A readable unit, then 4,000 empty units (a zero length each): every one is an issue, the list is capped.
        var sections = DWARFSample.sections(version: 4)
        sections.info += [UInt8](repeating: 0, count: 16_000)
        let index = try DWARFIndex(sections)
        #expect(index.issues.count == DWARFIndexBuilder.maximumIssues + 1)
        #expect(index.issues.last?.code == .limitExceeded)
        #expect(index.locations(at: 0x101a).map(\.symbol) == ["clamp", "scale", "render"])
    }
}
