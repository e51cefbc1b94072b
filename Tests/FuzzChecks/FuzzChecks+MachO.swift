import APMInspectCore
import Symbolication

extension FuzzChecks {
    /// `FuzzMachO`: a file reads alike twice or fails alike with a located error; every slice's DWARF sections are
    /// the size their headers state; the symbol table is sorted, and each lookup answers with a symbol at or before
    /// the address, inside that symbol's section, at the right offset; names demangle or are left alone.
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
        if let dwarf = try? slice.dwarfSections() {
            if let info = slice.section("__DWARF", "__debug_info"), !info.isZeroFill {
                found.require(UInt64(dwarf.info.count) == info.size, "__debug_info is not the size its header states")
            }
            found.require(dwarf.addressSize == slice.addressSize, "the DWARF address size is not the slice's")
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
            if let readable = Demangler.demangle(symbol.name) {
                found.require(!readable.isEmpty, "an empty demangled name")
                found.require(Demangler.isMangled(symbol.name), "a name demangled without a mangling prefix")
            }
        }
        return
    }
}
