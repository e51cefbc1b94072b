/// One slice of a dSYM or binary, ready to answer for its addresses: the DWARF index when the slice carries
/// DWARF, the symbol table (nearest preceding symbol, as atos does without DWARF) for what the DWARF does not
/// name.
///
/// Addresses are file addresses (see ``AddressResolver``); ``textVMAddress`` is what turns a runtime address into
/// one: `fileAddress = runtimeAddress - loadAddress + textVMAddress`.
package struct DebugImage: AddressResolver {
    package let uuid: MachOUUID?
    package let architecture: MachOArchitecture
    /// The `__TEXT` segment's vmaddr: the file address a load address corresponds to.
    package let textVMAddress: UInt64
    /// The DWARF index, nil when the slice has no `__debug_info`.
    package let dwarf: DWARFIndex?
    /// The fallback for addresses the DWARF has no function for.
    package let symbols: (any AddressResolver)?
    /// What could not be read of the DWARF (the index keeps the rest).
    package let issues: [SymbolicationError]

    /// Builds the image of `slice`, with `symbols` as the fallback or, when nil, the slice's own symbol table
    /// (none when it cannot be read).
    ///
    /// Throws when the slice's DWARF sections cannot be located at all; damaged
    /// DWARF inside them is kept in ``issues`` and costs only the units it breaks.
    package init(slice: MachOSlice, symbols: (any AddressResolver)? = nil) throws(SymbolicationError) {
        uuid = slice.uuid
        architecture = slice.architecture
        textVMAddress = slice.textVMAddress ?? 0
        self.symbols = symbols ?? (try? slice.symbolTable())
        let sections = try slice.dwarfSections()
        if sections.isEmpty {
            dwarf = nil
            issues = []
        } else {
            do {
                let index = try DWARFIndex(sections)
                dwarf = index
                issues = index.issues
            } catch {
                dwarf = nil
                issues = [error]
            }
        }
    }

    /// An image over an index made elsewhere (tests, prepared indexes).
    package init(
        uuid: MachOUUID?,
        architecture: MachOArchitecture,
        textVMAddress: UInt64,
        dwarf: DWARFIndex?,
        symbols: (any AddressResolver)? = nil
    ) {
        self.uuid = uuid
        self.architecture = architecture
        self.textVMAddress = textVMAddress
        self.dwarf = dwarf
        self.symbols = symbols
        issues = dwarf?.issues ?? []
    }

    /// The file address of `runtimeAddress` in an image loaded at `loadAddress`; nil when the address lies below
    /// the load address or the arithmetic would leave 64 bits.
    package func fileAddress(of runtimeAddress: UInt64, loadAddress: UInt64) -> UInt64? {
        guard runtimeAddress >= loadAddress else { return nil }
        let (sum, overflow) = (runtimeAddress - loadAddress).addingReportingOverflow(textVMAddress)
        return overflow ? nil : sum
    }

    /// The inline chain from the DWARF, innermost first; the symbol table alone when the DWARF knows nothing.
    ///
    /// The concrete function (the last location) takes its name and offset from the symbol table whenever the
    /// table has a symbol there, as llvm-symbolizer does: the DWARF may name it more shortly (`-gline-tables-only`
    /// keeps no linkage names) or spell an assembler name differently, and the symbol is what the crash report
    /// and atos show. Inlined frames exist only in the DWARF and keep its names; an inlined frame without one is
    /// left out, and a concrete function that neither names leaves no answer.
    package func locations(at fileAddress: UInt64) -> [SymbolicatedLocation] {
        let frames = dwarf?.frames(at: fileAddress) ?? []
        guard !frames.isEmpty else { return symbols?.locations(at: fileAddress) ?? [] }
        var result: [SymbolicatedLocation] = []
        result.reserveCapacity(frames.count)
        for frame in frames {
            var location = SymbolicatedLocation(
                symbol: frame.name ?? "",
                symbolOffset: frame.offset,
                file: frame.file,
                line: frame.line,
                column: frame.column,
                isInlined: frame.isInlined
            )
            if !frame.isInlined, let named = symbols?.locations(at: fileAddress).last {
                location.symbol = named.symbol
                location.symbolOffset = named.symbolOffset
            } else if frame.name == nil {
                // An unnamed concrete function would leave its inlined callees to end the chain, and atos would
                // print the last of them as the function: no answer instead, as for an unnamed function alone.
                if !frame.isInlined { return [] }
                continue
            }
            result.append(location)
        }
        return result
    }
}
