extension StructureMap {
    /// Most abbreviation declarations whose forms are mapped per `__debug_abbrev`.
    static let maxAbbreviations = 512

    /// A bare `.debug_line` section (the `FuzzDWARFLine` input): its tables walked by their `unit_length`.
    mutating func addDWARFLineSection(_ bytes: [UInt8]) {
        addDWARFUnits(bytes, 0..<bytes.count, bigEndian: false, lineTable: true)
    }

    /// One table's span for the table mutators, and the forms of its DWARF 5 entry formats.
    mutating func addDWARFLineTable(_ bytes: [UInt8], _ table: Range<Int>) {
        add(table, .dwarfLineTable)
        guard let layout = DWARFLineHeaderLayout(bytes, table: table) else { return }
        for form in layout.formsAt { add(form..<(form + 1), .dwarfForm) }
    }

    /// The form of each attribute of the first declarations of a `__debug_abbrev` section: code, tag and
    /// children flag, then (attribute, form) pairs to a (0, 0) pair; only one-byte forms are mapped, which are
    /// all the forms DWARF defines.
    mutating func addDWARFAbbreviations(_ bytes: [UInt8], _ section: Range<Int>) {
        var cursor = section.lowerBound
        func uleb() -> (value: UInt64, range: Range<Int>)? {
            let start = cursor
            var value: UInt64 = 0
            while cursor < section.upperBound, cursor - start < 10 {
                let byte = bytes[cursor]
                value |= UInt64(byte & 0x7F) << (7 * UInt64(cursor - start))
                cursor += 1
                if byte & 0x80 == 0 { return (value, start..<cursor) }
            }
            return nil
        }
        var declarations = 0
        while declarations < Self.maxAbbreviations, let code = uleb(), code.value != 0 {
            declarations += 1
            boundary(code.range.lowerBound)
            guard uleb() != nil, cursor < section.upperBound else { return }
            cursor += 1  // children
            while let attribute = uleb(), let form = uleb() {
                if attribute.value == 0, form.value == 0 { break }
                if form.range.count == 1 { add(form.range, .dwarfForm) }
                if form.value == 0x21, uleb() == nil { return }  // implicit_const's value
            }
        }
    }
}
