import APMInspectCore

extension MachOSlice {
    static let stabMask: UInt8 = 0xE0
    static let typeMask: UInt8 = 0x0E
    static let typeSection: UInt8 = 0x0E
    static let external: UInt8 = 0x01

    /// The slice's defined section symbols (LC_SYMTAB's nlist entries and string table) as a resolver.
    ///
    /// A slice without LC_SYMTAB gives an empty table. Throws when the symbol or string table lies outside the
    /// slice; single symbols with a name outside the string table or an unknown section are skipped with a
    /// diagnostic.
    package func symbolTable() throws(SymbolicationError) -> MachOSymbolTable {
        let sections = self.sections
        guard let symtab else {
            return MachOSymbolTable(entries: [], strings: [], sections: sections, diagnostics: [])
        }
        let keyPath = symtab.loadCommand.keyPath
        let entrySize = is64Bit ? 16 : 12
        let symbolsStart = Int(symtab.symbolOffset)
        let (tableSize, overflow) = Int(symtab.symbolCount).multipliedReportingOverflow(by: entrySize)
        guard !overflow, let symbolsEnd = MachOBytes.end(symbolsStart, tableSize), symbolsEnd <= size else {
            throw SymbolicationError(
                .malformedMachO,
                "the symbol table (\(symtab.symbolCount) entries of \(entrySize) bytes at \(symtab.symbolOffset)) runs "
                    + "past the end of the \(size)-byte slice",
                at: location(symtab.loadCommand.fileOffset + 8, keyPath: keyPath + ".nsyms")
            )
        }
        let stringsStart = Int(symtab.stringOffset)
        guard let stringsEnd = MachOBytes.end(stringsStart, Int(symtab.stringSize)), stringsEnd <= size,
            let strings = file.copy(at: fileOffset + stringsStart, count: Int(symtab.stringSize))
        else {
            throw SymbolicationError(
                .malformedMachO,
                "the string table (\(symtab.stringSize) bytes at \(symtab.stringOffset)) runs past the end of the "
                    + "\(size)-byte slice",
                at: location(symtab.loadCommand.fileOffset + 16, keyPath: keyPath + ".strsize")
            )
        }
        var entries: [MachOSymbolTable.Entry] = []
        var badNames = 0
        var badSections = 0
        var firstBad: Int?
        let little = isLittleEndian
        for index in 0..<Int(symtab.symbolCount) {
            let at = fileOffset + symbolsStart + index * entrySize
            guard let nameOffset = file.u32(at: at, littleEndian: little), let type = file.u8(at: at + 4),
                let sectionNumber = file.u8(at: at + 5),
                let value = is64Bit
                    ? file.u64(at: at + 8, littleEndian: little)
                    : file.u32(at: at + 8, littleEndian: little).map(UInt64.init)
            else { break }
            guard type & Self.stabMask == 0, type & Self.typeMask == Self.typeSection else { continue }
            guard sectionNumber >= 1, Int(sectionNumber) <= sections.count else {
                badSections += 1
                firstBad = firstBad ?? at
                continue
            }
            guard nameOffset < symtab.stringSize else {
                badNames += 1
                firstBad = firstBad ?? at
                continue
            }
            entries.append(
                MachOSymbolTable.Entry(
                    address: value,
                    nameOffset: nameOffset,
                    sectionIndex: UInt32(sectionNumber) - 1,
                    isExternal: type & Self.external != 0
                )
            )
        }
        let order = MachOSymbolTable.lookupOrder(entries)
        var diagnostics: [Diagnostic] = []
        if badNames > 0 || badSections > 0, let firstBad {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .machoSymbolsSkipped,
                    "\(badNames + badSections) symbols skipped: \(badNames) named outside the string table, "
                        + "\(badSections) in a section the slice does not have",
                    at: location(firstBad, keyPath: keyPath + ".nlist")
                )
            )
        }
        return MachOSymbolTable(
            entries: order.map { entries[$0] },
            strings: strings,
            sections: sections,
            diagnostics: diagnostics
        )
    }
}
