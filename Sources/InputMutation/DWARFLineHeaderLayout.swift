/// Where the fields of one `.debug_line` table header lie (little-endian, 32- or 64-bit DWARF, version 2 to 5),
/// read as far as the bytes allow: what the DWARF mutators rewrite in place.
struct DWARFLineHeaderLayout: Sendable, Equatable {
    /// The `unit_length` field (after the 64-bit escape when there is one).
    var lengthAt: Int
    /// 4 for 32-bit DWARF, 8 for 64-bit.
    var offsetWidth: Int
    var versionAt: Int
    var version: Int
    var headerLengthAt: Int
    /// Where `header_length` says the program starts, and where `unit_length` says the table ends (both clamped
    /// to the table's span).
    var programStart: Int
    var end: Int
    /// DWARF 5: the `directory_entry_format_count` byte, the form bytes of the entry formats that fit one byte,
    /// and the `directories_count` ULEB128.
    var directoryFormatCountAt: Int?
    var formsAt: [Int] = []
    var directoryCount: Range<Int>?

    /// The header of the table occupying `table` of `bytes`; nil when even its fixed fields are cut off.
    init?(_ bytes: [UInt8], table: Range<Int>) {
        guard table.upperBound <= bytes.count, table.count >= 4,
            let first = ByteFields.read(bytes, at: table.lowerBound, width: 4, bigEndian: false)
        else { return nil }
        offsetWidth = first == 0xFFFF_FFFF ? 8 : 4
        lengthAt = first == 0xFFFF_FFFF ? table.lowerBound + 4 : table.lowerBound
        versionAt = lengthAt + offsetWidth
        end = table.upperBound
        guard let version = ByteFields.read(bytes, at: versionAt, width: 2, bigEndian: false), versionAt + 2 <= end
        else { return nil }
        self.version = Int(version)
        headerLengthAt = versionAt + 2 + (version >= 5 ? 2 : 0)
        let fixed = headerLengthAt + offsetWidth
        guard fixed <= end,
            let headerLength = ByteFields.read(bytes, at: headerLengthAt, width: offsetWidth, bigEndian: false)
        else { return nil }
        programStart = headerLength <= UInt64(end - fixed) ? fixed + Int(headerLength) : end
        guard version >= 5 else { return }
        // minimum_instruction_length, maximum_operations, default_is_stmt, line_base, line_range, opcode_base.
        let opcodeBaseAt = fixed + 5
        guard opcodeBaseAt < programStart else { return }
        let formatCountAt = opcodeBaseAt + Int(bytes[opcodeBaseAt])
        guard formatCountAt < programStart else { return }
        directoryFormatCountAt = formatCountAt
        var cursor = formatCountAt + 1
        func uleb() -> Range<Int>? {
            let start = cursor
            while cursor < programStart, cursor - start < 10 {
                cursor += 1
                if bytes[cursor - 1] & 0x80 == 0 { return start..<cursor }
            }
            return nil
        }
        for _ in 0..<Int(bytes[formatCountAt]) {
            guard uleb() != nil, let form = uleb() else { return }
            if form.count == 1 { formsAt.append(form.lowerBound) }
        }
        directoryCount = uleb()
    }
}
