import APMInspectCore
import Symbolication

extension FuzzChecks {
    /// `FuzzMachO`: a file reads alike twice or fails alike with a located error; every slice's DWARF sections are
    /// the size their headers state; the DWARF index builds within
    /// its line-table budget; the symbol table is sorted, and each lookup answers with a symbol at or before
    /// the address, inside that symbol's section, at the right offset; every name (up to 64 KiB of them) demangles within
    /// the length cut or is left alone.
    public static func machO(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        let first = Result { () throws(SymbolicationError) in try MachOFile(bytes: bytes) }
        let second = Result { () throws(SymbolicationError) in try MachOFile(bytes: bytes) }
        switch (first, second) {
        case (.failure(let error), .failure(let again)):
            found.require(error == again, "two reads of the same bytes fail differently")
            found.require(error.location?.byteOffset != nil, "an error without a byte offset: \(error)")
            return found
        case (.success(let file), .success(let again)):
            found.require(summary(file) == summary(again), "two reads of the same bytes differ")
            found.require(!file.slices.isEmpty, "a file read with no slice")
            for slice in file.slices { checkSlice(slice, &found) }
        default:
            found.require(false, "one read of the bytes failed and the other did not")
        }
        return found
    }

    private static func summary(_ file: MachOFile) -> [String] {
        file.slices.map { slice in
            "\(slice.architecture) \(slice.uuid.map(String.init(describing:)) ?? "-") \(slice.fileOffset) \(slice.size) "
                + "\(slice.loadCommands) \(slice.segments)"
        } + file.diagnostics.map(\.description)
    }

    private static func checkSlice(_ slice: MachOSlice, _ found: inout FuzzFindings) {
        found.require(slice.fileOffset >= 0 && slice.size >= 0, "a slice with a negative range")
        var index: DWARFIndex?
        if let dwarf = try? slice.dwarfSections() {
            if let info = slice.section("__DWARF", "__debug_info"), !info.isZeroFill {
                found.require(UInt64(dwarf.info.count) == info.size, "__debug_info is not the size its header states")
            }
            found.require(dwarf.addressSize == slice.addressSize, "the DWARF address size is not the slice's")
            index = checkDWARFIndex(dwarf, &found)
        }
        guard let table = try? slice.symbolTable() else { return }
        let symbols = table.symbols
        found.require(symbols.count == table.count, "the symbol count changes when the symbols are listed")
        found.require(zip(symbols, symbols.dropFirst()).allSatisfy { $0.address <= $1.address }, "symbols out of order")
        // Lookups around the first symbols (each start, one past it, one before it), bounded per input.
        for symbol in symbols.prefix(64) {
            for address in [symbol.address, symbol.address &+ 1, symbol.address &- 1, symbol.section.address] {
                guard let hit = table.symbol(containing: address) else { continue }
                found.require(hit.symbol.address <= address, "a symbol after the address it answers for")
                found.require(hit.offset == address &- hit.symbol.address, "an offset that is not the distance")
                found.require(hit.symbol.section.contains(address), "an answer outside its symbol's section")
                let locations = table.locations(at: address)
                found.require(
                    locations == [SymbolicatedLocation(symbol: hit.symbol.name, symbolOffset: hit.offset)],
                    "locations(at:) disagrees with symbol(containing:)"
                )
            }
            for frame in index?.frames(at: symbol.address) ?? [] {
                found.require(frame.offset <= symbol.address, "a DWARF frame whose offset is past the address")
            }
        }
        // Every name through the demanglers, up to a budget of name bytes per input.
        var nameBytes = 0
        for symbol in symbols {
            nameBytes += symbol.name.utf8.count
            if nameBytes > 1 << 16 { break }
            requireDemangles(symbol.name, &found)
        }
    }

    /// The slice's DWARF built into the index: located issues, the line-table budget, short inline chains at the
    /// addresses the line tables and functions start at.
    private static func checkDWARFIndex(_ dwarf: DWARFSections, _ found: inout FuzzFindings) -> DWARFIndex? {
        guard let index = try? DWARFIndex(dwarf) else { return nil }
        for issue in index.issues {
            found.require(issue.location?.byteOffset != nil, "a DWARF issue without a byte offset: \(issue)")
        }
        requireLineBudget(index, lineBytes: dwarf.line.count, &found)
        found.require(index.functionCount <= dwarf.info.count, "more functions than bytes of .debug_info")
        for address in stride(from: UInt64(0x1_0000_0000), to: 0x1_0000_4000, by: 0x100) {
            let frames = index.frames(at: address)
            found.require(frames.count <= 1_025, "a chain of \(frames.count) frames")
            found.require(frames.dropLast().allSatisfy(\.isInlined), "a frame before the last is not inlined")
        }
        return index
    }
}
