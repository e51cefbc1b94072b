/// Walks `.debug_info` once and fills a ``DWARFIndex``: unit headers, unit DIEs, every subprogram and inlined
/// subroutine with an address range, their names, and the line table of each unit.
struct DWARFIndexBuilder {
    /// DIE nesting deeper than any compiler writes; deeper nesting is treated as damage.
    static let maximumDepth = 1_024
    /// Hops through `DW_AT_abstract_origin`/`DW_AT_specification` when looking for a name.
    static let maximumNameHops = 64

    /// The attributes of one DIE that the index uses.
    struct Facts {
        var name: DWARFValue?
        var linkageName: DWARFValue?
        var abstractOrigin: UInt64?
        var specification: UInt64?
        var lowPC: DWARFValue?
        var highPC: DWARFValue?
        var ranges: DWARFValue?
        var callFile: UInt64?
        var callLine: UInt64?
        var callColumn: UInt64?
        var stmtList: UInt64?
        var compDir: DWARFValue?
        var strOffsetsBase: UInt64?
        var addrBase: UInt64?
        var rnglistsBase: UInt64?
    }

    /// A DIE with children that the walk is inside of.
    private struct Open {
        var offset: Int
        var isSubroutine: Bool
        var isSubprogram: Bool
        var facts: Facts?
        var function: Int32
        /// Index in the stack of the nearest subroutine above this entry (-1 for none), so that finding a chain's
        /// parent never scans the stack.
        var enclosingSubroutine: Int
    }

    private struct Interval {
        var range: Range<UInt64>
        var owner: Int32
    }

    private(set) var index = DWARFIndex()
    private let addressSize: Int
    private var units: [DWARFUnit] = []
    private var tables: [DWARFAbbreviationTable] = []
    private var tableByOffset: [UInt64: Int] = [:]
    /// Fixed DIE sizes per (table, address size, offset size, version class), one entry per abbreviation.
    private var fixedSizes: [FixedSizeKey: [Int32]] = [:]
    private var lineTableByKey: [LineTableKey: Int] = [:]
    /// `.debug_line` bytes that line tables may still take (see `DWARFLineProgram.parse`).
    private var lineBudget: Int
    private var referencedFacts: [UInt64: Facts?] = [:]
    private var functionIntervals: [Interval] = []
    private var unitIntervals: [Interval] = []
    /// Address ranges still allowed, in proportion to the input, so that range lists shared by many DIEs cannot
    /// multiply memory.
    private var rangeBudget: Int

    private struct FixedSizeKey: Hashable {
        var table: Int
        var addressSize: Int
        var offsetSize: Int
        var versionTwo: Bool
    }

    private struct LineTableKey: Hashable {
        var offset: UInt64
        var addressSize: Int
    }

    init(sections: DWARFSections) {
        addressSize = sections.addressSize
        let total = sections.info.count + sections.ranges.count + sections.rnglists.count
        rangeBudget = 4 * total + 4_096
        lineBudget = sections.line.count
    }

    mutating func build(_ buffers: DWARFBuffers) throws(SymbolicationError) {
        readUnitHeaders(buffers)
        if units.isEmpty, let first = index.issues.first { throw first }
        for position in units.indices {
            walk(unit: position, buffers)
        }
        index.functionSegments = Self.flatten(functionIntervals)
        index.unitSegments = Self.flatten(unitIntervals)
        index.unitLineTables = units.map { Int32($0.lineTable ?? -1) }
        index.unitCompDirs = units.map(\.compDir)
        functionIntervals = []
        unitIntervals = []
    }

    /// Issues kept; past this many, one more says the rest were dropped (an input of thousands of broken units
    /// would otherwise hold a message per few bytes).
    static let maximumIssues = 1_000

    private mutating func record(_ issue: SymbolicationError) {
        if index.issues.count < Self.maximumIssues {
            index.issues.append(issue)
        } else if index.issues.count == Self.maximumIssues {
            index.issues.append(
                DWARFSectionName.info.error(
                    "more than \(Self.maximumIssues) issues in the DWARF; the rest are not listed",
                    at: 0,
                    code: .limitExceeded
                )
            )
        }
    }

    // MARK: Unit headers

    private mutating func readUnitHeaders(_ buffers: DWARFBuffers) {
        var reader = buffers.reader(.info)
        while !reader.isAtEnd {
            let start = reader.offset
            let length: UInt64
            let offsetSize: Int
            do {
                (length, offsetSize) = try reader.initialLength()
            } catch {
                record(error)
                return
            }
            guard length <= UInt64(reader.remaining) else {
                record(reader.error("unit length \(length) runs past the end of the section", at: start))
                return
            }
            let end = reader.offset + Int(length)
            do {
                var unit = try readHeader(&reader, start: start, end: end, offsetSize: offsetSize)
                let abbreviationOffset = UInt64(unit.abbreviationTable)
                unit.abbreviationTable = try table(at: abbreviationOffset, buffers)
                units.append(unit)
            } catch {
                record(error)
            }
            reader.offset = end
        }
    }

    private func readHeader(
        _ reader: inout DWARFReader,
        start: Int,
        end: Int,
        offsetSize: Int
    ) throws(SymbolicationError) -> DWARFUnit {
        let version = Int(try reader.u16())
        guard (2...5).contains(version) else { throw reader.error("unit version \(version) is not 2 to 5", at: start) }
        var unitType = DWARFUnitType.compile
        let abbreviationOffset: UInt64
        let unitAddressSize: Int
        if version >= 5 {
            unitType = try reader.u8()
            unitAddressSize = Int(try reader.u8())
            abbreviationOffset = try reader.unsigned(size: offsetSize)
            switch unitType {
            case DWARFUnitType.type, DWARFUnitType.splitType: try reader.skip(8 + offsetSize)
            case DWARFUnitType.skeleton, DWARFUnitType.splitCompile: try reader.skip(8)
            case DWARFUnitType.compile, DWARFUnitType.partial: break
            default: throw reader.error("unit type \(unitType) is unknown", at: start)
            }
        } else {
            abbreviationOffset = try reader.unsigned(size: offsetSize)
            unitAddressSize = Int(try reader.u8())
        }
        guard [2, 4, 8].contains(unitAddressSize) else {
            throw reader.error("unit address size \(unitAddressSize)", at: start)
        }
        guard reader.offset <= end else { throw reader.error("unit header runs past the unit", at: start) }
        guard abbreviationOffset <= UInt64(Int.max) else {
            throw reader.error("abbreviation offset \(abbreviationOffset)", at: start)
        }
        return DWARFUnit(
            offset: start,
            end: end,
            firstDIE: reader.offset,
            version: version,
            unitType: unitType,
            addressSize: unitAddressSize,
            offsetSize: offsetSize,
            abbreviationTable: Int(abbreviationOffset)
        )
    }

    private mutating func table(at offset: UInt64, _ buffers: DWARFBuffers) throws(SymbolicationError) -> Int {
        if let known = tableByOffset[offset] { return known }
        guard offset < UInt64(buffers.abbrev.count) else {
            throw DWARFSectionName.abbrev.error("abbreviation table offset \(offset) is outside the section", at: 0)
        }
        var reader = buffers.reader(.abbrev, at: Int(offset))
        let table = try DWARFAbbreviationTable(reading: &reader)
        tables.append(table)
        tableByOffset[offset] = tables.count - 1
        return tables.count - 1
    }

    // MARK: DIE walk

    private mutating func walk(unit position: Int, _ buffers: DWARFBuffers) {
        var unit = units[position]
        let decoder = DWARFFormDecoder(unit)
        let table = tables[unit.abbreviationTable]
        let sizes = fixedSizes(for: unit, decoder: decoder)
        var reader = buffers.reader(.info, at: unit.firstDIE)
        let unitIndex = Int32(position)
        var stack: [Open] = []
        var isFirst = true
        do throws(SymbolicationError) {
            while reader.offset < unit.end {
                let dieOffset = reader.offset
                let code = try reader.uleb()
                if code == 0 {
                    if !stack.isEmpty { stack.removeLast() }
                    continue
                }
                guard let abbreviationIndex = table.index(of: code) else {
                    throw reader.error("abbreviation code \(code) is not in the unit's table", at: dieOffset)
                }
                let abbreviation = table.abbreviations[abbreviationIndex]
                let isSubprogram = abbreviation.tag == DWARFTag.subprogram
                let isSubroutine = isSubprogram || abbreviation.tag == DWARFTag.inlinedSubroutine
                var facts: Facts?
                if isFirst || isSubroutine {
                    facts = try Self.readFacts(abbreviation, decoder: decoder, reader: &reader)
                } else if sizes[abbreviationIndex] >= 0 {
                    try reader.skip(Int(sizes[abbreviationIndex]))
                } else {
                    for specification in abbreviation.specifications {
                        try decoder.skip(specification.form, from: &reader)
                    }
                }
                guard reader.offset <= unit.end else {
                    throw reader.error("DIE runs past the end of its unit", at: dieOffset)
                }
                if isFirst {
                    isFirst = false
                    if let facts { readUnitDIE(facts, unit: &unit, position: position, buffers) }
                    units[position] = unit
                }
                var function: Int32 = -1
                if isSubroutine, let facts {
                    let ranges = addressRanges(facts, unit: unit, buffers)
                    if !ranges.isEmpty {
                        let parent = isSubprogram ? -1 : materializeInnermost(&stack, unit: unitIndex, buffers)
                        function = addFunction(
                            facts,
                            offset: dieOffset,
                            isSubprogram: isSubprogram,
                            parent: parent,
                            unit: unitIndex,
                            ranges: ranges,
                            buffers
                        )
                    }
                }
                if abbreviation.hasChildren {
                    guard stack.count < Self.maximumDepth else {
                        throw reader.error(
                            "DIEs nested deeper than \(Self.maximumDepth)",
                            at: dieOffset,
                            code: .limitExceeded
                        )
                    }
                    let enclosing = stack.last.map { $0.isSubroutine ? stack.count - 1 : $0.enclosingSubroutine } ?? -1
                    stack.append(
                        Open(
                            offset: dieOffset,
                            isSubroutine: isSubroutine,
                            isSubprogram: isSubprogram,
                            facts: isSubroutine ? facts : nil,
                            function: function,
                            enclosingSubroutine: enclosing
                        )
                    )
                }
            }
        } catch {
            record(error)
        }
        units[position] = unit
    }

    private mutating func fixedSizes(for unit: DWARFUnit, decoder: DWARFFormDecoder) -> [Int32] {
        let key = FixedSizeKey(
            table: unit.abbreviationTable,
            addressSize: unit.addressSize,
            offsetSize: unit.offsetSize,
            versionTwo: unit.version <= 2
        )
        if let known = fixedSizes[key] { return known }
        let sizes = tables[unit.abbreviationTable].abbreviations.map { abbreviation in
            decoder.fixedSize(of: abbreviation).map { Int32(clamping: $0) } ?? -1
        }
        fixedSizes[key] = sizes
        return sizes
    }

    /// The function of the innermost open subroutine, creating the records of open subroutines that have no
    /// range of their own (an inlined subroutine whose ranges sit only on its children still belongs in chains).
    private mutating func materializeInnermost(
        _ stack: inout [Open],
        unit: Int32,
        _ buffers: DWARFBuffers
    ) -> Int32 {
        guard let top = stack.last else { return -1 }
        let innermost = top.isSubroutine ? stack.count - 1 : top.enclosingSubroutine
        guard innermost >= 0 else { return -1 }
        return materialize(&stack, innermost, unit: unit, buffers)
    }

    private mutating func materialize(
        _ stack: inout [Open],
        _ position: Int,
        unit: Int32,
        _ buffers: DWARFBuffers
    ) -> Int32 {
        // Iterative: find the outermost open subroutine not yet recorded on the way up, then record downwards.
        var pending: [Int] = []
        var cursor: Int? = position
        while let current = cursor, stack[current].function < 0 {
            pending.append(current)
            if stack[current].isSubprogram { break }
            cursor = stack[current].enclosingSubroutine >= 0 ? stack[current].enclosingSubroutine : nil
        }
        for current in pending.reversed() {
            var parent: Int32 = -1
            let above = stack[current].enclosingSubroutine
            if !stack[current].isSubprogram, above >= 0 { parent = stack[above].function }
            stack[current].function = addFunction(
                stack[current].facts ?? Facts(),
                offset: stack[current].offset,
                isSubprogram: stack[current].isSubprogram,
                parent: parent,
                unit: unit,
                ranges: [],
                buffers
            )
        }
        return stack[position].function
    }

    private mutating func addFunction(
        _ facts: Facts,
        offset: Int,
        isSubprogram: Bool,
        parent: Int32,
        unit: Int32,
        ranges: [Range<UInt64>],
        _ buffers: DWARFBuffers
    ) -> Int32 {
        let owner = Int32(clamping: index.functions.count)
        let unitValue = units[Int(unit)]
        var lowPC: UInt64?
        if let low = facts.lowPC { lowPC = address(low, unit: unitValue, buffers) }
        index.functions.append(
            DWARFIndex.Function(
                name: name(of: facts, offset: offset, unit: unitValue, buffers),
                isSubprogram: isSubprogram,
                parent: parent,
                unit: unit,
                callFile: facts.callFile ?? 0,
                callLine: UInt32(clamping: facts.callLine ?? 0),
                callColumn: UInt32(clamping: facts.callColumn ?? 0),
                firstRange: Int32(clamping: index.functionRanges.count),
                rangeCount: Int32(clamping: ranges.count),
                lowPC: lowPC
            )
        )
        index.functionRanges.append(contentsOf: ranges)
        for range in ranges { functionIntervals.append(Interval(range: range, owner: owner)) }
        return owner
    }

    static func readFacts(
        _ abbreviation: DWARFAbbreviation,
        decoder: DWARFFormDecoder,
        reader: inout DWARFReader
    ) throws(SymbolicationError) -> Facts {
        var facts = Facts()
        for specification in abbreviation.specifications {
            let value = try decoder.read(
                specification.form,
                implicitConst: specification.implicitConst,
                from: &reader
            )
            switch specification.attribute {
            case DWARFAttribute.name: if facts.name == nil { facts.name = value }
            case DWARFAttribute.linkageName, DWARFAttribute.mipsLinkageName:
                if facts.linkageName == nil { facts.linkageName = value }
            case DWARFAttribute.abstractOrigin:
                if case .reference(let target) = value { facts.abstractOrigin = target }
            case DWARFAttribute.specification:
                if case .reference(let target) = value { facts.specification = target }
            case DWARFAttribute.lowPC: facts.lowPC = value
            case DWARFAttribute.highPC: facts.highPC = value
            case DWARFAttribute.ranges: facts.ranges = value
            case DWARFAttribute.callFile: facts.callFile = value.constant
            case DWARFAttribute.callLine: facts.callLine = value.constant
            case DWARFAttribute.callColumn: facts.callColumn = value.constant
            case DWARFAttribute.stmtList: facts.stmtList = value.constant
            case DWARFAttribute.compDir: facts.compDir = value
            case DWARFAttribute.strOffsetsBase: facts.strOffsetsBase = value.constant
            case DWARFAttribute.addrBase, DWARFAttribute.gnuAddrBase: facts.addrBase = value.constant
            case DWARFAttribute.rnglistsBase: facts.rnglistsBase = value.constant
            default: break
            }
        }
        return facts
    }

    // MARK: Unit DIE

    private mutating func readUnitDIE(
        _ facts: Facts,
        unit: inout DWARFUnit,
        position: Int,
        _ buffers: DWARFBuffers
    ) {
        unit.strOffsetsBase = facts.strOffsetsBase
        unit.addrBase = facts.addrBase
        unit.rnglistsBase = facts.rnglistsBase
        if let low = facts.lowPC { unit.baseAddress = address(low, unit: unit, buffers) ?? 0 }
        if let compDir = facts.compDir { unit.compDir = string(compDir, unit: unit, buffers) }
        if let stmtList = facts.stmtList {
            // One parse per table however many units name it: units differ only in the compilation directory,
            // which is joined when a lookup makes a path.
            let key = LineTableKey(offset: stmtList, addressSize: unit.addressSize)
            if let known = lineTableByKey[key] {
                unit.lineTable = known
            } else {
                do {
                    let (table, issue) = try DWARFLineProgram.parse(
                        at: stmtList,
                        sections: buffers,
                        addressSize: unit.addressSize,
                        budget: &lineBudget
                    )
                    if let issue { record(issue) }
                    index.lineTables.append(table)
                    unit.lineTable = index.lineTables.count - 1
                    lineTableByKey[key] = unit.lineTable
                } catch {
                    record(error)
                }
            }
        }
        for range in addressRanges(facts, unit: unit, buffers) {
            unitIntervals.append(Interval(range: range, owner: Int32(clamping: position)))
        }
    }

    // MARK: Values

    private func address(_ value: DWARFValue, unit: DWARFUnit, _ buffers: DWARFBuffers) -> UInt64? {
        switch value {
        case .address(let address): return address
        case .addressIndex(let slot):
            let base = unit.addrBase ?? 8
            let (product, overflow1) = slot.multipliedReportingOverflow(by: UInt64(unit.addressSize))
            let (position, overflow2) = base.addingReportingOverflow(product)
            guard !overflow1, !overflow2, position < UInt64(buffers.addr.count) else { return nil }
            var reader = buffers.reader(.addr, at: Int(position))
            return try? reader.unsigned(size: unit.addressSize)
        default: return nil
        }
    }

    /// Where the text of a string attribute is; strx indexes are resolved through `.debug_str_offsets` here.
    private func string(_ value: DWARFValue, unit: DWARFUnit, _ buffers: DWARFBuffers) -> DWARFString? {
        switch value {
        case .inlineString(let range):
            return DWARFString(section: .info, offset: UInt64(range.lowerBound))
        case .strp(let offset):
            return offset < UInt64(buffers.str.count) ? DWARFString(section: .str, offset: offset) : nil
        case .lineStrp(let offset):
            return offset < UInt64(buffers.lineStr.count) ? DWARFString(section: .lineStr, offset: offset) : nil
        case .strIndex(let slot):
            let base = unit.strOffsetsBase ?? UInt64(2 * unit.offsetSize)
            let (product, overflow1) = slot.multipliedReportingOverflow(by: UInt64(unit.offsetSize))
            let (position, overflow2) = base.addingReportingOverflow(product)
            guard !overflow1, !overflow2, position < UInt64(buffers.strOffsets.count) else { return nil }
            var reader = buffers.reader(.strOffsets, at: Int(position))
            guard let offset = try? reader.unsigned(size: unit.offsetSize) else { return nil }
            return string(.strp(offset), unit: unit, buffers)
        default:
            return nil
        }
    }

    /// The name llvm-symbolizer gives a subroutine: the linkage name found on the DIE or by following its
    /// abstract origin and specification, else the plain name found the same way.
    private mutating func name(
        of facts: Facts,
        offset: Int,
        unit: DWARFUnit,
        _ buffers: DWARFBuffers
    ) -> DWARFString? {
        var visited: [(facts: Facts, unit: DWARFUnit)] = []
        var seen: Set<UInt64> = [UInt64(offset)]
        var work: [(facts: Facts, unit: DWARFUnit)] = [(facts, unit)]
        while let item = work.popLast(), visited.count < Self.maximumNameHops {
            visited.append(item)
            for target in [item.facts.abstractOrigin, item.facts.specification] {
                guard let target, seen.insert(target).inserted, let next = factsOfDIE(at: target, buffers) else {
                    continue
                }
                work.append(next)
            }
        }
        for item in visited {
            if let value = item.facts.linkageName, let reference = string(value, unit: item.unit, buffers) {
                return reference
            }
        }
        for item in visited {
            if let value = item.facts.name, let reference = string(value, unit: item.unit, buffers) { return reference }
        }
        return nil
    }

    /// The facts of the DIE at `offset` of `.debug_info`, read through the abbreviations of its unit.
    private mutating func factsOfDIE(at offset: UInt64, _ buffers: DWARFBuffers) -> (facts: Facts, unit: DWARFUnit)? {
        guard let unitPosition = unitPosition(containing: offset) else { return nil }
        let unit = units[unitPosition]
        if let cached = referencedFacts[offset] {
            return cached.map { ($0, unit) }
        }
        var result: Facts?
        let table = tables[unit.abbreviationTable]
        var reader = buffers.reader(.info, at: Int(offset))
        if let code = try? reader.uleb(), let abbreviationIndex = table.index(of: code) {
            result = try? Self.readFacts(
                table.abbreviations[abbreviationIndex],
                decoder: DWARFFormDecoder(unit),
                reader: &reader
            )
        }
        referencedFacts[offset] = .some(result)
        return result.map { ($0, unit) }
    }

    private func unitPosition(containing offset: UInt64) -> Int? {
        var low = 0
        var high = units.count
        while low < high {
            let middle = low + (high - low) / 2
            if UInt64(units[middle].offset) <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let unit = units[low - 1]
        guard offset >= UInt64(unit.firstDIE), offset < UInt64(unit.end) else { return nil }
        return low - 1
    }

    // MARK: Ranges

    /// The ranges of a DIE as llvm reads them: low and high pc first, else `DW_AT_ranges`.
    ///
    /// Empty ranges are dropped.
    private mutating func addressRanges(
        _ facts: Facts,
        unit: DWARFUnit,
        _ buffers: DWARFBuffers
    ) -> [Range<UInt64>] {
        var result: [Range<UInt64>] = []
        if let lowValue = facts.lowPC, let highValue = facts.highPC, let low = address(lowValue, unit: unit, buffers) {
            let high: UInt64?
            if highValue.isConstantClass, let length = highValue.constant {
                let (sum, overflow) = low.addingReportingOverflow(length)
                high = overflow ? nil : sum
            } else {
                high = address(highValue, unit: unit, buffers)
            }
            if let high, low < high { result.append(low..<high) }
        } else if let value = facts.ranges {
            // Entries read count against the budget, kept or not: a list of empty entries named by every DIE
            // must not cost time in proportion to their product.
            var read = 0
            result = rangeList(value, unit: unit, limit: max(rangeBudget, 0), read: &read, buffers)
            rangeBudget -= read - result.count
        }
        let allowed = min(result.count, max(rangeBudget, 0))
        if allowed < result.count || (rangeBudget <= 0 && facts.ranges != nil) {
            if rangeBudget >= 0 {
                record(
                    DWARFSectionName.info.error(
                        "more address ranges than the input can hold; the rest are ignored",
                        at: unit.offset,
                        code: .limitExceeded
                    )
                )
            }
            rangeBudget = -1
            return Array(result.prefix(allowed))
        }
        rangeBudget -= result.count
        return result
    }

    private func rangeList(
        _ value: DWARFValue,
        unit: DWARFUnit,
        limit: Int,
        read: inout Int,
        _ buffers: DWARFBuffers
    ) -> [Range<UInt64>] {
        var offset: UInt64
        switch value {
        case .rnglistIndex(let slot):
            let base = unit.rnglistsBase ?? UInt64(unit.offsetSize == 8 ? 20 : 12)
            let (product, overflow1) = slot.multipliedReportingOverflow(by: UInt64(unit.offsetSize))
            let (position, overflow2) = base.addingReportingOverflow(product)
            guard !overflow1, !overflow2, position < UInt64(buffers.rnglists.count) else { return [] }
            var reader = buffers.reader(.rnglists, at: Int(position))
            guard let relative = try? reader.unsigned(size: unit.offsetSize) else { return [] }
            let (sum, overflow3) = base.addingReportingOverflow(relative)
            guard !overflow3 else { return [] }
            offset = sum
            return rnglist(at: offset, unit: unit, limit: limit, read: &read, buffers)
        case .sectionOffset(let value), .unsigned(let value):
            offset = value
        default:
            return []
        }
        if unit.version >= 5 { return rnglist(at: offset, unit: unit, limit: limit, read: &read, buffers) }
        return debugRanges(at: offset, unit: unit, limit: limit, read: &read, buffers)
    }

    /// A DWARF 2–4 `.debug_ranges` list: address pairs relative to the base, base selection entries, (0, 0) end.
    private func debugRanges(
        at offset: UInt64,
        unit: DWARFUnit,
        limit: Int,
        read: inout Int,
        _ buffers: DWARFBuffers
    ) -> [Range<UInt64>] {
        guard offset < UInt64(buffers.ranges.count) else { return [] }
        var reader = buffers.reader(.ranges, at: Int(offset))
        let size = unit.addressSize
        let largest: UInt64 = size == 8 ? .max : (1 << UInt64(size * 8)) - 1
        var base = unit.baseAddress
        var result: [Range<UInt64>] = []
        while read < limit, let start = try? reader.unsigned(size: size), let end = try? reader.unsigned(size: size) {
            read += 1
            if start == 0, end == 0 { break }
            if start == largest {
                base = end
                continue
            }
            let (low, overflow1) = base.addingReportingOverflow(start)
            let (high, overflow2) = base.addingReportingOverflow(end)
            if !overflow1, !overflow2, low < high { result.append(low..<high) }
        }
        return result
    }

    /// A DWARF 5 `.debug_rnglists` list.
    private func rnglist(
        at offset: UInt64,
        unit: DWARFUnit,
        limit: Int,
        read: inout Int,
        _ buffers: DWARFBuffers
    ) -> [Range<UInt64>] {
        guard offset < UInt64(buffers.rnglists.count) else { return [] }
        var reader = buffers.reader(.rnglists, at: Int(offset))
        var base = unit.baseAddress
        var result: [Range<UInt64>] = []
        func indexed(_ slot: UInt64) -> UInt64? { address(.addressIndex(slot), unit: unit, buffers) }
        func add(_ low: UInt64?, _ high: UInt64?) {
            if let low, let high, low < high { result.append(low..<high) }
        }
        do throws(SymbolicationError) {
            loop: while read < limit {
                read += 1
                let kind = try reader.u8()
                switch kind {
                case 0: break loop
                case 1: base = indexed(try reader.uleb()) ?? base
                case 2: add(indexed(try reader.uleb()), indexed(try reader.uleb()))
                case 3:
                    let low = indexed(try reader.uleb())
                    let length = try reader.uleb()
                    add(low, low.flatMap { $0.addingReportingOverflow(length).overflow ? nil : $0 + length })
                case 4:
                    let start = try reader.uleb()
                    let end = try reader.uleb()
                    add(
                        base.addingReportingOverflow(start).overflow ? nil : base + start,
                        base.addingReportingOverflow(end).overflow ? nil : base + end
                    )
                case 5: base = try reader.unsigned(size: unit.addressSize)
                case 6: add(try reader.unsigned(size: unit.addressSize), try reader.unsigned(size: unit.addressSize))
                case 7:
                    let low = try reader.unsigned(size: unit.addressSize)
                    let length = try reader.uleb()
                    add(low, low.addingReportingOverflow(length).overflow ? nil : low + length)
                default: break loop
                }
            }
        } catch {
            return result
        }
        return result
    }

    // MARK: Segments

    /// Flattens possibly nested intervals into disjoint segments where the interval added last wins, as llvm's
    /// address-to-DIE map does: a child DIE (added after its parent) owns its part of its parent's range.
    private static func flatten(_ intervals: [Interval]) -> DWARFIndex.SegmentMap {
        var map = DWARFIndex.SegmentMap()
        guard !intervals.isEmpty else { return map }
        let order = intervals.indices.sorted { intervals[$0].range.lowerBound < intervals[$1].range.lowerBound }
        var boundaries: [UInt64] = []
        boundaries.reserveCapacity(2 * intervals.count)
        for interval in intervals {
            boundaries.append(interval.range.lowerBound)
            boundaries.append(interval.range.upperBound)
        }
        boundaries.sort()
        var heap = MaxHeap()
        var next = 0
        var previous: UInt64?
        for (position, boundary) in boundaries.enumerated() {
            if boundary == previous { continue }
            previous = boundary
            while next < order.count, intervals[order[next]].range.lowerBound <= boundary {
                heap.push(order[next])
                next += 1
            }
            while let top = heap.top, intervals[top].range.upperBound <= boundary { heap.pop() }
            guard let top = heap.top else { continue }
            var end = boundary
            for later in boundaries[(position + 1)...] where later > boundary {
                end = later
                break
            }
            guard end > boundary else { continue }
            let owner = intervals[top].owner
            if let last = map.ends.last, last == boundary, map.owners.last == owner {
                map.ends[map.ends.count - 1] = end
            } else {
                map.starts.append(boundary)
                map.ends.append(end)
                map.owners.append(owner)
            }
        }
        return map
    }
}

/// A binary max-heap of interval positions: the interval added last is on top.
private struct MaxHeap {
    private var items: [Int] = []

    var top: Int? { items.first }

    mutating func push(_ value: Int) {
        items.append(value)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[parent] < items[child] else { break }
            items.swapAt(parent, child)
            child = parent
        }
    }

    mutating func pop() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var largest = parent
            if left < items.count, items[left] > items[largest] { largest = left }
            if right < items.count, items[right] > items[largest] { largest = right }
            if largest == parent { return }
            items.swapAt(parent, largest)
            parent = largest
        }
    }
}
