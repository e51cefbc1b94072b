import APMInspectCore
import Symbolication

extension FuzzChecks {
    /// Most line-table headers one `FuzzDWARFLine` input is run with.
    static let maximumLineHeaders = 256

    /// Offsets where a line-table header may start in `line`: the chain of unit lengths from 0, then every offset
    /// whose fields look like a header (a length that fits, version 2 to 5, a plausible next field).
    ///
    /// The scan is what lets a mutation that copies a header inside another table, or points several headers at
    /// one program, run each of them as a unit's own table, as a crafted dSYM's `DW_AT_stmt_list` values would.
    public static func lineTableOffsets(_ line: [UInt8]) -> [UInt64] {
        func u16(_ at: Int) -> UInt64 { UInt64(line[at]) | UInt64(line[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt64 { u16(at) | u16(at + 2) << 16 }
        func u64(_ at: Int) -> UInt64 { u32(at) | u32(at + 4) << 32 }
        /// The end of the table at `offset` when its header looks real.
        func plausibleEnd(_ offset: Int) -> Int? {
            guard line.count - offset >= 16 else { return nil }
            var length = u32(offset)
            var fields = offset + 4
            if length == 0xffff_ffff {
                guard line.count - offset >= 24 else { return nil }
                length = u64(offset + 4)
                fields = offset + 12
            } else if length >= 0xffff_fff0 {
                return nil
            }
            guard length >= 8, length <= UInt64(line.count - fields) else { return nil }
            let version = u16(fields)
            guard (2...5).contains(version) else { return nil }
            if version == 5 {
                guard [4, 8].contains(line[fields + 2]), line[fields + 3] == 0 else { return nil }
            } else {
                guard line[fields + 2 + (fields == offset + 4 ? 4 : 8)] != 0 else { return nil }  // min_inst_length
            }
            return fields + Int(length)
        }
        var offsets: [UInt64] = []
        var seen = Set<Int>()
        var chain = 0
        while offsets.count < maximumLineHeaders, let end = plausibleEnd(chain) {
            offsets.append(UInt64(chain))
            seen.insert(chain)
            chain = end
        }
        var scan = 1
        while offsets.count < maximumLineHeaders, scan + 16 <= line.count {
            if !seen.contains(scan), plausibleEnd(scan) != nil { offsets.append(UInt64(scan)) }
            scan += 1
        }
        return offsets
    }

    /// `.debug_info` and `.debug_abbrev` of one DWARF 4 compile unit per offset, each with `DW_AT_stmt_list` at
    /// that offset and one function `f` covering addresses 0 to 2^40, so every lookup reads a line table.
    public static func lineTableUnits(_ offsets: [UInt64]) -> (info: [UInt8], abbrev: [UInt8]) {
        var info: [UInt8] = []
        func put(_ value: UInt64, _ size: Int) {
            for index in 0..<size { info.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * index))) }
        }
        for offset in offsets {
            let start = info.count
            put(0, 4)  // unit_length, patched below
            put(4, 2)
            put(0, 4)  // debug_abbrev_offset
            put(8, 1)  // address_size
            put(1, 1)  // compile unit: stmt_list, low_pc, high_pc, comp_dir
            put(offset, 4)
            put(0, 8)
            put(1 << 40, 8)
            info += Array("/w".utf8) + [0]
            put(2, 1)  // subprogram: name, low_pc, high_pc
            info += [UInt8(ascii: "f"), 0]
            put(0, 8)
            put(1 << 40, 8)
            put(0, 1)  // end of the unit's children
            let length = UInt64(info.count - start - 4)
            for index in 0..<4 { info[start + index] = UInt8(truncatingIfNeeded: length >> UInt64(8 * index)) }
        }
        let abbrev: [UInt8] = [
            1, 0x11, 1, 0x10, 0x17, 0x11, 0x01, 0x12, 0x07, 0x1b, 0x08, 0, 0,
            2, 0x2e, 0, 0x03, 0x08, 0x11, 0x01, 0x12, 0x07, 0, 0,
            0,
        ]
        return (info, abbrev)
    }

    /// `FuzzDWARFLine`: a `.debug_line` section, each header in it run as a unit's table.
    ///
    /// The index is built or refused with a located error; the rows and entries the tables hold stay within the
    /// section's size (each is read from bytes no other one reads); every lookup answers with one frame.
    public static func dwarfLine(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        let (info, abbrev) = lineTableUnits(lineTableOffsets(bytes))
        let sections = DWARFSections(info: info, abbrev: abbrev, line: bytes)
        let index: DWARFIndex
        do {
            index = try DWARFIndex(sections)
        } catch {
            found.require(error.location?.byteOffset != nil, "an error without a byte offset: \(error)")
            return found
        }
        for issue in index.issues {
            found.require(
                issue.location?.keyPath?.hasPrefix("__DWARF.__debug_") == true && issue.location?.byteOffset != nil,
                "an issue without a DWARF section and offset: \(issue)"
            )
        }
        requireLineBudget(index, lineBytes: bytes.count, &found)
        var addresses: [UInt64] = Array(stride(from: 0, to: 0x400, by: 7))
        var cursor = 0
        while cursor + 8 <= bytes.count, addresses.count < 400 {
            var value: UInt64 = 0
            for index in 0..<8 { value |= UInt64(bytes[cursor + index]) << (8 * UInt64(index)) }
            addresses.append(value & ((1 << 40) - 1))
            cursor += 8
        }
        for address in addresses {
            let frames = index.frames(at: address)
            // One function and no inlining: one frame once a unit is read, none without a header to read.
            found.require(frames.count <= 1, "\(frames.count) frames for one function at \(address)")
            found.require(frames.last?.isInlined != true, "the only frame is marked inlined")
            // Counted in scalars: a byte that is not UTF-8 is read as U+FFFD, three bytes of UTF-8 for one of input
            // (the first campaign stopped on a path of 0xFF bytes), so the path's UTF-8 may outgrow the section.
            let scalars = frames.last?.file?.unicodeScalars.count ?? 0
            found.require(scalars <= bytes.count + 8, "a file name longer than its bytes")
        }
        return found
    }

    /// The line-table budget: rows, file and directory entries at most the bytes of `.debug_line`, plus entry 0 of
    /// each table.
    static func requireLineBudget(_ index: DWARFIndex, lineBytes: Int, _ found: inout FuzzFindings) {
        let budget = lineBytes + 2 * index.lineTableCount
        found.require(
            index.lineRecordCount <= budget,
            "the line tables hold \(index.lineRecordCount) rows and entries from \(lineBytes) bytes of .debug_line"
        )
    }
}
