import APMInspectCore

/// A slice's symbol table as an address resolver: the nearest preceding defined symbol and the offset into it,
/// which is what atos answers for a binary without debug information.
///
/// Only defined section symbols count (no debugger stabs, no undefined or absolute symbols). An address past the
/// end of its nearest symbol's section resolves to nothing, so padding between sections is not blamed on the last
/// function before it. Names are read from the string table when asked for, so the table costs a fixed few bytes a
/// symbol however long or shared the names are.
package struct MachOSymbolTable: AddressResolver {
    /// One defined symbol, with its name left in the string table.
    struct Entry: Sendable {
        var address: UInt64
        var nameOffset: UInt32
        var sectionIndex: UInt32
        var isExternal: Bool
    }

    /// Sorted by address; among symbols at one address, external ones first, then by position in the table.
    let entries: [Entry]
    let strings: [UInt8]
    /// The slice's sections, 0-based (n_sect is 1-based).
    let sections: [MachOSection]
    /// Symbols skipped and why (names outside the string table, sections that do not exist).
    package let diagnostics: [Diagnostic]

    /// The number of defined section symbols.
    package var count: Int { entries.count }

    /// Every symbol in address order.
    ///
    /// Builds every name: for listings and tests, not per-address lookups.
    package var symbols: [MachOSymbol] { entries.map(symbol(for:)) }

    /// The first `count` symbols in address order.
    ///
    /// Only their names are built: a hostile table of a million entries sharing one 64 KB name costs what is
    /// listed, where ``symbols`` would build every name.
    package func symbols(first count: Int) -> [MachOSymbol] {
        entries.prefix(max(count, 0)).map(symbol(for:))
    }

    /// The symbol whose code holds `address`, and the distance from its start, as atos gives it without DWARF.
    package func symbol(containing address: UInt64) -> (symbol: MachOSymbol, offset: UInt64)? {
        guard let found = entry(containing: address) else { return nil }
        return (symbol(for: entries[found.entry]), found.offset)
    }

    /// The position of the symbol whose code holds `address` (for ``name(ofEntry:)``) and the distance from its
    /// start: ``symbol(containing:)`` without making the name, for callers that make each name once.
    package func entry(containing address: UInt64) -> (entry: Int, offset: UInt64)? {
        // Binary search for the first entry past `address`; the one before it is the nearest preceding symbol.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = low + (high - low) / 2
            if entries[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        var index = low - 1
        let start = entries[index].address
        // The preferred symbol among several at the same address is the first of them.
        while index > 0, entries[index - 1].address == start { index -= 1 }
        let entry = entries[index]
        let section = sections[Int(entry.sectionIndex)]
        guard address >= section.address, address - section.address < section.size else { return nil }
        return (index, address - entry.address)
    }

    /// The name of the symbol at position `entry` of ``entry(containing:)``; empty when out of range.
    package func name(ofEntry entry: Int) -> String {
        guard entry >= 0, entry < entries.count else { return "" }
        return name(at: Int(entries[entry].nameOffset))
    }

    package func locations(at fileAddress: UInt64) -> [SymbolicatedLocation] {
        guard let found = symbol(containing: fileAddress) else { return [] }
        return [SymbolicatedLocation(symbol: found.symbol.name, symbolOffset: found.offset)]
    }

    private func symbol(for entry: Entry) -> MachOSymbol {
        MachOSymbol(
            name: name(at: Int(entry.nameOffset)),
            address: entry.address,
            section: sections[Int(entry.sectionIndex)],
            isExternal: entry.isExternal
        )
    }

    /// The NUL-terminated name at `offset` of the string table, at most ``MachOLimits/maxSymbolNameLength`` bytes
    /// of it (the table was checked to hold `offset` when the symbol was read).
    private func name(at offset: Int) -> String {
        guard offset < strings.count else { return "" }
        let limit = min(strings.count, offset + MachOLimits.maxSymbolNameLength)
        let raw = strings[offset..<limit]
        let end = raw.firstIndex(of: 0) ?? limit
        return MachOSymbol.displayName(strings[offset..<end])
    }
}

extension MachOSymbolTable {
    /// The order a table's entries are kept in: by address, and, stable among symbols at one address, the external
    /// one first, then the first in the input (what the Mach-O file and the dyld cache readers both hand in).
    static func lookupOrder(_ entries: [Entry]) -> [Int] {
        entries.indices.sorted { left, right in
            let a = entries[left]
            let b = entries[right]
            if a.address != b.address { return a.address < b.address }
            if a.isExternal != b.isExternal { return a.isExternal }
            return left < right
        }
    }
}
