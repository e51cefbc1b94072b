import Testing

@testable import Symbolication

/// Line tables whose headers promise more than their bytes hold: what the index keeps stays in proportion to the
/// `.debug_line` section, however the headers are crafted.
@Suite struct DWARFLineBudgetTests {
    /// `count` copies of the sample unit (DWARF 4), unit `i` naming the line table at `offsets[i]`.
    private func units(pointingAt offsets: [UInt32]) -> [UInt8] {
        let unit = DWARFSample.unitOnly(version: 4).info
        var info: [UInt8] = []
        for offset in offsets {
            var copy = unit
            // Header (11 bytes), abbreviation code, name and comp_dir (4 bytes each), then DW_AT_stmt_list.
            for index in 0..<4 { copy[20 + index] = UInt8(truncatingIfNeeded: offset >> UInt32(8 * index)) }
            info += copy
        }
        return info
    }

    private func patch32(_ line: inout DWARFBytes, at position: Int, _ value: Int) {
        for index in 0..<4 { line.bytes[position + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// A DWARF 5 table whose directory and file formats are `format` (content, form pairs) while the counts say
    /// `count`, with a one-row program after the header.
    private func promisingTable(format: [(UInt64, UInt64)], count: UInt64) -> [UInt8] {
        var line = DWARFBytes()
        let headerLengthAt = DWARFSample.lineHeaderStart(&line, version: 5)
        for _ in 0..<2 {
            line.u8(UInt64(format.count))
            for (content, form) in format {
                line.uleb(content)
                line.uleb(form)
            }
            line.uleb(count)
        }
        patch32(&line, at: headerLengthAt, line.count - headerLengthAt - 4)
        line.u8(0)
        line.uleb(9)
        line.u8(2)
        line.u64(0x1000)
        line.u8(1)
        line.u8(0)
        line.uleb(1)
        line.u8(1)
        line.patchLength(at: 0)
        return line.bytes
    }

    /// Entries read this index's tables hold: directories, files and rows.
    private func held(_ index: DWARFIndex) -> Int {
        index.lineTables.reduce(0) { $0 + $1.files.count + $1.directories.count + $1.rows.count }
    }

    @Test(arguments: [
        // No fields at all: the audit's shape (format count 0, a million entries each).
        [(UInt64, UInt64)](),
        // Only a field of a form that reads no bytes (DW_FORM_flag_present).
        [(UInt64(1), UInt64(0x19))],
    ])
    func entriesThatReadNoBytesAreRefused(format: [(UInt64, UInt64)]) throws {
        var sections = DWARFSample.sections(version: 4)
        let table = promisingTable(format: format, count: 1_000_000)
        var line: [UInt8] = []
        var offsets: [UInt32] = []
        for _ in 0..<20 {
            offsets.append(UInt32(line.count))
            line += table
        }
        sections.line = line
        sections.info = units(pointingAt: offsets)
        let index = try DWARFIndex(sections)
        #expect(index.unitCount == 20)
        #expect(held(index) <= line.count)
        let refusals = index.issues.filter { $0.code == .limitExceeded }
        #expect(refusals.count == 20)
        // Each refusal points at the entry format of its own table.
        for (refusal, offset) in zip(refusals, offsets) {
            let at = try #require(refusal.location?.byteOffset)
            #expect(at > Int(offset) && at < Int(offset) + table.count)
        }
    }

    @Test func countsBeyondTheHeaderBytesAreRefusedBeforeAnyEntryIsRead() throws {
        // One real field (an inline string) but a count no header of this size can hold.
        var sections = DWARFSample.sections(version: 4)
        sections.line = promisingTable(format: [(1, 0x08)], count: 500)
        sections.info = units(pointingAt: [0])
        let index = try DWARFIndex(sections)
        #expect(index.lineTables.isEmpty)
        #expect(index.issues.map(\.code) == [.limitExceeded])
    }

    @Test func headersSharingOneLineProgramRunItOnce() throws {
        // 200 thirty-byte headers, each as long as the rest of the section, all pointing at one 20,000-byte
        // program of DW_LNS_copy (one row a byte): read 200 times it would be 4 million rows.
        let headers = 200
        let headerSize = 30
        let programStart = headers * headerSize
        var line = DWARFBytes()
        var offsets: [UInt32] = []
        for _ in 0..<headers {
            let start = line.count
            offsets.append(UInt32(start))
            let headerLengthAt = DWARFSample.lineHeaderStart(&line, version: 4)
            line.u8(0)  // no include directories
            line.u8(0)  // no file names
            #expect(line.count - start == headerSize)
            patch32(&line, at: headerLengthAt, programStart - headerLengthAt - 4)
        }
        line.u8(0)
        line.uleb(9)
        line.u8(2)
        line.u64(0x1000)
        for _ in 0..<20_000 { line.u8(1) }
        line.u8(2)
        line.uleb(8)
        line.u8(0)
        line.uleb(1)
        line.u8(1)
        for start in offsets {
            // unit_length: from after the field to the end of the section.
            patch32(&line, at: Int(start), line.count - Int(start) - 4)
        }
        var sections = DWARFSample.sections(version: 4)
        sections.line = line.bytes
        sections.info = units(pointingAt: offsets)
        let index = try DWARFIndex(sections)
        #expect(index.unitCount == headers)
        #expect(index.lineTables.count == 1)
        #expect(held(index) <= line.count)
        #expect(index.issues.count == headers - 1)
        #expect(index.issues.allSatisfy { $0.code == .limitExceeded })
        // The one table read is whole: its 20,000 rows and the end of its sequence.
        #expect(index.lineTables.first?.rows.count == 20_001)
        #expect(index.lineTables.first?.row(for: 0x1004)?.line == 1)
    }

    @Test func tablesSideBySideAreAllRead() throws {
        // The budget is the section: tables that do not overlap never reach it.
        var sections = DWARFSample.sections(version: 4)
        let table = sections.line
        var line: [UInt8] = []
        var offsets: [UInt32] = []
        for _ in 0..<50 {
            offsets.append(UInt32(line.count))
            line += table
        }
        sections.line = line
        sections.info = units(pointingAt: offsets)
        let index = try DWARFIndex(sections)
        #expect(index.lineTables.count == 50)
        #expect(index.issues.isEmpty)
    }
}
