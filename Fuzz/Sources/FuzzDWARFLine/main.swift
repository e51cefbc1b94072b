import FuzzSupport
import InputMutation

/// A `.debug_line` section, possibly holding several headers (some overlapping or sharing a program), each run as
/// the line table of its own compile unit through the line program reader, then asked about addresses.
///
/// The properties are ``FuzzChecks/dwarfLine(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDWARFLine(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.dwarfLine(fuzzBytes(start, count)))
    return 0
}

/// One mutation in three from the DWARF structure mutators (``fuzzStructureMutate(_:_:_:_:family:)``).
@_cdecl("LLVMFuzzerCustomMutator")
public func mutateDWARFLine(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    fuzzStructureMutate(data, size, maxSize, seed, family: .dwarfLine)
}

// Seeds (Fuzz/Seeds/FuzzDWARFLine): the fixture dSYMs' `.debug_line`, and hand-made DWARF 2 to 5 tables, 32- and
// 64-bit, one section with two tables.
