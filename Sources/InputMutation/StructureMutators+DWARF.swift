extension StructureMutators {
    /// Forms the form mutator writes: every one-byte form of DWARF 2 to 5, and codes no version defines.
    static let dwarfForms: [UInt8] = Array(0x01...0x2C) + [0x00, 0x2D, 0x7F, 0x1F, 0x21]

    /// The DWARF mutators: each rewrites one table or unit in place (but the widening to 64-bit DWARF), so a
    /// section in a Mach-O file keeps its size and the sections after it their offsets.
    static func dwarf(
        _ kind: MutatorKind,
        to bytes: inout [UInt8],
        map: StructureMap,
        rng: inout SplitMix64,
        limit: Int
    ) -> Int? {
        let tables = map.spans(.dwarfLineTable).filter { $0.range.upperBound <= bytes.count }
        switch kind {
        case .dwarfForm:
            guard let span = rng.pick(map.spans(.dwarfForm)), span.range.upperBound <= bytes.count,
                var form = rng.pick(dwarfForms)
            else { return nil }
            if form == bytes[span.range.lowerBound] { form ^= 0x40 }
            bytes[span.range.lowerBound] = form
            return span.range.lowerBound
        case .dwarfEmptyEntryFormats:
            let candidates = tables.compactMap { DWARFLineHeaderLayout(bytes, table: $0.range) }
                .filter { $0.directoryFormatCountAt != nil }
            guard let layout = rng.pick(candidates), let at = layout.directoryFormatCountAt else { return nil }
            // Format count 0, count 1,000,000 (ULEB128 c0 84 3d), for the directories then the files.
            let count: [UInt8] = rng.chance(80) ? [0xC0, 0x84, 0x3D] : [0xFF, 0xFF, 0xFF, 0x7F]
            let shape = [0] + count + [0] + count
            guard layout.programStart - at >= shape.count else { return nil }
            bytes.replaceSubrange(at..<(at + shape.count), with: shape)
            return at
        case .dwarfEntryCount:
            let candidates = tables.compactMap { DWARFLineHeaderLayout(bytes, table: $0.range)?.directoryCount }
            guard let count = rng.pick(candidates) else { return nil }
            // The largest value the field's bytes hold, or one past the bytes left.
            for index in count.dropLast() { bytes[index] = 0xFF }
            bytes[count.upperBound - 1] = rng.chance(50) ? 0x7F : 0x01
            return count.lowerBound
        case .dwarfSharedProgram:
            return sharedProgram(&bytes, tables: tables.map(\.range), rng: &rng)
        case .dwarfVersion:
            let units = tables + map.spans(.dwarfUnit).filter { $0.range.upperBound <= bytes.count }
            guard let unit = rng.pick(units), let layout = DWARFLineHeaderLayout(bytes, table: unit.range),
                var version = rng.pick([2, 3, 4, 5, 1, 6, 0xFFFF])
            else { return nil }
            if version == layout.version { version = version == 5 ? 4 : 5 }
            ByteFields.write(UInt64(version), into: &bytes, at: layout.versionAt, width: 2, bigEndian: false)
            return layout.versionAt
        case .dwarfOffsetSize:
            let units =
                tables.map { ($0.range, true) }
                + map.spans(.dwarfUnit).filter { $0.range.upperBound <= bytes.count }.map { ($0.range, false) }
            guard let (range, isLine) = rng.pick(units), let layout = DWARFLineHeaderLayout(bytes, table: range),
                layout.offsetWidth == 4, bytes.count + 8 <= limit
            else { return nil }
            return widen(&bytes, range, layout, isLine: isLine)
        default:
            return nil
        }
    }

    /// Points an earlier table's end and program at a later table's program (or its own table at the end of the
    /// section), so both headers run the same bytes: the shape of issue 38's N2.
    private static func sharedProgram(_ bytes: inout [UInt8], tables: [Range<Int>], rng: inout SplitMix64) -> Int? {
        guard let first = rng.pick(tables), let layout = DWARFLineHeaderLayout(bytes, table: first) else { return nil }
        let later = tables.filter { $0.lowerBound >= first.upperBound }
        let target = rng.pick(later).flatMap { DWARFLineHeaderLayout(bytes, table: $0) }
        let (programStart, end) = target.map { ($0.programStart, $0.end) } ?? (layout.programStart, first.upperBound)
        let fixed = layout.headerLengthAt + layout.offsetWidth
        guard programStart >= fixed else { return nil }
        let width = layout.offsetWidth
        ByteFields.write(
            UInt64(end - layout.versionAt),
            into: &bytes,
            at: layout.lengthAt,
            width: width,
            bigEndian: false
        )
        ByteFields.write(
            UInt64(programStart - fixed),
            into: &bytes,
            at: layout.headerLengthAt,
            width: width,
            bigEndian: false
        )
        return layout.lengthAt
    }

    /// Rewrites a 32-bit unit or table as 64-bit DWARF: the escape and an 8-byte length, and the offset-sized
    /// field after the version (a line table's `header_length`; a unit's `debug_abbrev_offset`) widened.
    private static func widen(
        _ bytes: inout [UInt8],
        _ range: Range<Int>,
        _ layout: DWARFLineHeaderLayout,
        isLine: Bool
    )
        -> Int?
    {
        let fieldAt = isLine ? layout.headerLengthAt : layout.versionAt + 2 + (layout.version >= 5 ? 2 : 0)
        guard fieldAt + 4 <= range.upperBound,
            let field = ByteFields.read(bytes, at: fieldAt, width: 4, bigEndian: false)
        else { return nil }
        var widened: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
        var length = [UInt8](repeating: 0, count: 8)
        ByteFields.write(
            UInt64(range.upperBound - layout.versionAt + 4),
            into: &length,
            at: 0,
            width: 8,
            bigEndian: false
        )
        widened += length
        widened += bytes[layout.versionAt..<fieldAt]
        var wide = [UInt8](repeating: 0, count: 8)
        ByteFields.write(field, into: &wide, at: 0, width: 8, bigEndian: false)
        widened += wide
        widened += bytes[(fieldAt + 4)..<range.upperBound]
        bytes.replaceSubrange(range, with: widened)
        return range.lowerBound
    }
}
