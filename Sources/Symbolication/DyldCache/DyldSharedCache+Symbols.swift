import APMInspectCore

extension DyldSharedCache {
    /// The image whose UUID is `uuid` (32 lower-case hex digits), if the cache holds it.
    func image(uuid: String) -> Image? {
        images.first { $0.plainUUID == uuid }
    }

    /// The image's symbols as a resolver: its global symbols from its LC_SYMTAB in the shared `__LINKEDIT`, and its
    /// local symbols from the cache's local-symbols table, all at unslid cache addresses.
    ///
    /// The same reader names a library of a DeviceSupport folder (``MachOSymbolTable``): the nearest preceding
    /// defined symbol within its section, so a frame gets the name the extracted library would give it.
    func symbolTable(for image: Image) throws(DyldCacheProblem) -> MachOSymbolTable {
        let slice = try Self.header(at: image.address, in: [main] + subCaches)
        guard let uuid = slice.uuid, uuid.bytes == image.uuid else {
            throw DyldCacheProblem.truncated(
                "the image at address 0x\(String(image.address, radix: 16)) does not carry the UUID the table gives it"
            )
        }
        let sections = slice.sections
        var collected = Collected(sectionCount: sections.count)
        if let symtab = slice.symtab, symtab.symbolCount > 0 {
            try globals(of: slice, symtab: symtab, into: &collected)
        }
        try locals(of: image, into: &collected)
        let entries = collected.entries
        let order = MachOSymbolTable.lookupOrder(entries)
        var diagnostics: [Diagnostic] = []
        if collected.skipped > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .machoSymbolsSkipped,
                    "\(collected.skipped) symbols skipped: named outside their string table or in a section the image "
                        + "does not have"
                )
            )
        }
        return MachOSymbolTable(
            entries: order.map { entries[$0] },
            strings: collected.strings,
            sections: sections,
            diagnostics: diagnostics
        )
    }

    /// The symbols gathered for one image, their names copied into one string table of their own.
    struct Collected {
        let sectionCount: Int
        var entries: [MachOSymbolTable.Entry] = []
        var strings: [UInt8] = [0]
        var skipped = 0

        /// One 16-byte nlist_64: (strx, type, sect, value); nil for a symbol that names no code or data of a section.
        mutating func candidate(_ table: MachOBytes, at: Int) -> (
            strx: UInt32, type: UInt8, section: UInt8, value: UInt64
        )? {
            guard let strx = table.u32(at: at, littleEndian: true), let type = table.u8(at: at + 4),
                let section = table.u8(at: at + 5), let value = table.u64(at: at + 8, littleEndian: true)
            else { return nil }
            guard type & MachOSlice.stabMask == 0, type & MachOSlice.typeMask == MachOSlice.typeSection else {
                return nil
            }
            guard section >= 1, Int(section) <= sectionCount else {
                skipped += 1
                return nil
            }
            return (strx, type, section, value)
        }

        mutating func add(name: ArraySlice<UInt8>, type: UInt8, section: UInt8, value: UInt64) {
            guard strings.count + name.count + 1 <= Int(UInt32.max) else {
                skipped += 1
                return
            }
            let offset = UInt32(strings.count)
            strings.append(contentsOf: name)
            strings.append(0)
            entries.append(
                MachOSymbolTable.Entry(
                    address: value,
                    nameOffset: offset,
                    sectionIndex: UInt32(section) - 1,
                    isExternal: type & MachOSlice.external != 0
                )
            )
        }

        /// Adds the symbols of `table` (`count` nlist_64 entries), names read through `strings`.
        mutating func add(_ table: MachOBytes, count: Int, strings names: DyldStringTable) {
            var wanted: [(strx: UInt32, type: UInt8, section: UInt8, value: UInt64)] = []
            wanted.reserveCapacity(count)
            for index in 0..<count {
                guard let symbol = candidate(table, at: index * 16) else { continue }
                guard Int(symbol.strx) < names.size else {
                    skipped += 1
                    continue
                }
                wanted.append(symbol)
            }
            let resolved = names.names(wanted.map { Int($0.strx) })
            for (symbol, name) in zip(wanted, resolved) {
                guard let name else {
                    skipped += 1
                    continue
                }
                add(name: name, type: symbol.type, section: symbol.section, value: symbol.value)
            }
        }
    }

    /// The image's LC_SYMTAB entries: its offsets are file offsets of the shared `__LINKEDIT`, turned into
    /// addresses through the image's own `__LINKEDIT` segment (its file may be a subcache).
    private func globals(of slice: MachOSlice, symtab: MachOSlice.SymtabCommand, into collected: inout Collected)
        throws(DyldCacheProblem)
    {
        guard let linkedit = slice.segments.first(where: { $0.name == "__LINKEDIT" }) else {
            throw DyldCacheProblem.truncated("the image has LC_SYMTAB but no __LINKEDIT segment")
        }
        func address(ofFileOffset offset: UInt32) -> UInt64? {
            let value = UInt64(offset)
            guard value >= linkedit.fileOffset else { return nil }
            let (sum, overflow) = linkedit.vmAddress.addingReportingOverflow(value - linkedit.fileOffset)
            return overflow ? nil : sum
        }
        let count = Int(symtab.symbolCount)
        guard count <= DyldCacheLimits.maxSymbolsPerImage, let symbols = address(ofFileOffset: symtab.symbolOffset),
            let strings = address(ofFileOffset: symtab.stringOffset)
        else {
            throw DyldCacheProblem.truncated(
                "the image's symbol table (\(symtab.symbolCount) symbols at \(symtab.symbolOffset)) lies outside its "
                    + "__LINKEDIT, or has more than \(DyldCacheLimits.maxSymbolsPerImage) symbols"
            )
        }
        let table = try bytes(atAddress: symbols, count: count * 16, what: "the image's symbol table")
        let names = DyldStringTable(size: Int(symtab.stringSize)) { offset, length in
            guard let (sum, overflow) = Optional(strings.addingReportingOverflow(UInt64(offset))), !overflow else {
                return nil
            }
            return try? self.bytes(atAddress: sum, count: length, what: "strings")
        }
        collected.add(MachOBytes(bytes: table), count: count, strings: names)
    }

    /// The image's local symbols from the `dyld_cache_local_symbols_info` of the `.symbols` file (or of the main
    /// file in older caches); nothing when the cache has none.
    private func locals(of image: Image, into collected: inout Collected) throws(DyldCacheProblem) {
        guard let file = localSymbolsFile else { return }
        let header = file.header
        guard let base = MachOBytes.offset(header.localSymbolsOffset),
            let size = MachOBytes.offset(header.localSymbolsSize),
            let end = MachOBytes.end(base, size), end <= file.size, size >= 24
        else {
            throw DyldCacheProblem.truncated(
                "the local symbols (\(header.localSymbolsSize) bytes at \(header.localSymbolsOffset)) lie past the end "
                    + "of the \(file.size)-byte file \(file.path.display)"
            )
        }
        let info = try file.window(at: base, count: 24, what: "the local symbols header")
        let fields = (0..<6).map { info.u32(at: $0 * 4, littleEndian: true).map(Int.init) ?? 0 }
        let (nlistOffset, nlistCount, stringsOffset, stringsSize, entriesOffset, entriesCount) = (
            fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]
        )
        let wide = header.localEntriesAre64Bit
        let entrySize = wide ? 16 : 12
        func inside(_ offset: Int, _ length: Int) -> Bool {
            guard let stop = MachOBytes.end(offset, length) else { return false }
            return stop <= size
        }
        guard entriesCount <= DyldCacheLimits.maxImages, inside(entriesOffset, entriesCount * entrySize),
            inside(nlistOffset, nlistCount * 16), inside(stringsOffset, stringsSize)
        else {
            throw DyldCacheProblem.truncated(
                "the local symbols' tables (\(entriesCount) entries, \(nlistCount) symbols, \(stringsSize) bytes of "
                    + "names) lie outside its \(size) bytes in \(file.path.display)"
            )
        }
        // New caches key an image by its VM offset from the cache's base; old ones by its file offset in the main file.
        let key: UInt64
        if wide {
            guard let first = main.mappings.first, image.address >= first.address else { return }
            key = image.address - first.address
        } else {
            guard let offset = main.fileOffset(ofAddress: image.address, count: 1) else { return }
            key = UInt64(offset)
        }
        let entries = try file.window(
            at: base + entriesOffset,
            count: entriesCount * entrySize,
            what: "the local symbols' entries"
        )
        for index in 0..<entriesCount {
            let at = index * entrySize
            let dylib =
                wide
                ? entries.u64(at: at, littleEndian: true) : entries.u32(at: at, littleEndian: true).map(UInt64.init)
            guard dylib == key, let start = entries.u32(at: at + entrySize - 8, littleEndian: true).map(Int.init),
                let count = entries.u32(at: at + entrySize - 4, littleEndian: true).map(Int.init)
            else { continue }
            guard count <= DyldCacheLimits.maxSymbolsPerImage, let last = MachOBytes.end(start, count),
                last <= nlistCount
            else {
                throw DyldCacheProblem.truncated(
                    "the image's \(count) local symbols from index \(start) run past the \(nlistCount) of the table"
                )
            }
            let table = try file.window(
                at: base + nlistOffset + start * 16,
                count: count * 16,
                what: "the image's local symbols"
            )
            let names = DyldStringTable(size: stringsSize) { offset, length in
                file.read(at: base + stringsOffset + offset, count: length)
            }
            collected.add(table, count: count, strings: names)
            return
        }
    }
}
