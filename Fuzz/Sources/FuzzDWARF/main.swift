import FuzzSupport

/// One slice's DWARF sections, each a 4-byte little-endian length then its bytes (``FuzzChecks/dwarfSections(_:)``),
/// built into the index and asked about addresses.
///
/// The properties are ``FuzzChecks/dwarf(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDWARF(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.dwarf(fuzzBytes(start, count)))
    return 0
}

// Seeds (Fuzz/Seeds/FuzzDWARF): the sections of the fixture dSYMs' slices, packed by FuzzChecks.dwarfInput; the
// replay test DWARFFuzzReplayTests checks they still equal what the Mach-O reader takes from the fixtures.
