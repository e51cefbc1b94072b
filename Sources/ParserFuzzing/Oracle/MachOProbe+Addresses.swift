import Symbolication

extension MachOProbe {
    /// Symbols whose start, one past it and points inside it are resolved per slice.
    static let maxSymbols = 64
    /// Code addresses taken from the DWARF per slice.
    static let maxDWARFAddresses = 96
    /// Bytes of one DWARF section searched for code addresses.
    static let maxDWARFScan = 1 << 20

    /// The addresses asked about, at most ``maxAddresses``: the extremes and `__TEXT`'s vmaddr; code addresses
    /// the DWARF itself holds (`DW_AT_low_pc` of functions and inlined calls, range and line-table addresses);
    /// each symbol's start, one past it and three points inside it; each section's first and last byte and
    /// points across `__TEXT`; words of the input (as addresses, and as offsets into `__TEXT`).
    ///
    /// A function's start is never inside an inline chain, so the DWARF's own addresses and points inside
    /// functions are what reach the inlined frames; they still do when the symbol table is damaged.
    static func addresses(_ image: DebugImage, slice: MachOSlice, bytes: [UInt8]) -> [UInt64] {
        var seen: Set<UInt64> = []
        var list: [UInt64] = []
        func add(_ address: UInt64) {
            guard list.count < maxAddresses, seen.insert(address).inserted else { return }
            list.append(address)
        }
        add(0)
        add(.max)
        add(image.textVMAddress)
        for address in dwarfCodeAddresses(slice) { add(address) }
        if let table = try? slice.symbolTable() {
            let symbols = table.symbols(first: maxSymbols)
            for (index, symbol) in symbols.enumerated() {
                add(symbol.address)
                add(symbol.address &+ 1)
                let next = index + 1 < symbols.count ? symbols[index + 1].address : nil
                let end = next ?? symbol.section.address &+ symbol.section.size
                guard end > symbol.address else { continue }
                let length = min(end - symbol.address, 1 << 20)
                for quarter in UInt64(1)...3 { add(symbol.address &+ length * quarter / 4) }
            }
        }
        for section in slice.sections.prefix(32) {
            add(section.address)
            add(section.address &+ section.size &- 1)
            guard section.segmentName == "__TEXT" else { continue }
            let length = min(section.size, 1 << 24)
            for sixteenth in UInt64(1)...15 { add(section.address &+ length * sixteenth / 16) }
        }
        let step = max(8, bytes.count / 48)
        var at = 0
        while at <= bytes.count - 8, list.count < maxAddresses {
            var word: UInt64 = 0
            for k in 0..<8 { word |= UInt64(bytes[at + k]) << (8 * UInt64(k)) }
            add(word)
            add(image.textVMAddress &+ (word & 0xFFFF))
            at += step
        }
        return list
    }

    /// Pointer-sized values at any offset of the DWARF sections that fall inside a `__TEXT` section: the low PCs,
    /// range bounds and line-table addresses the index is built from, without decoding the DWARF a second time.
    private static func dwarfCodeAddresses(_ slice: MachOSlice) -> [UInt64] {
        let code = slice.sections.filter { $0.segmentName == "__TEXT" && $0.size > 0 }.prefix(16)
        guard !code.isEmpty else { return [] }
        let width = slice.addressSize
        var found: [UInt64] = []
        var seen: Set<UInt64> = []
        for name in [
            "__debug_addr", "__debug_info", "__debug_aranges", "__debug_rnglists", "__debug_ranges", "__debug_line",
        ] {
            guard let section = slice.section("__DWARF", name), let bytes = try? slice.bytes(of: section) else {
                continue
            }
            var at = 0
            let limit = min(bytes.count, maxDWARFScan) - width
            while at <= limit, found.count < maxDWARFAddresses {
                var value: UInt64 = 0
                for k in 0..<width {
                    let byte = UInt64(bytes[at + (slice.isLittleEndian ? width - 1 - k : k)])
                    value = value << 8 | byte
                }
                if code.contains(where: { $0.contains(value) }), seen.insert(value).inserted { found.append(value) }
                at += 1
            }
        }
        return found
    }
}
