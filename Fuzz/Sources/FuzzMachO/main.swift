import FuzzSupport

/// Mach-O files, thin and fat (binaries and dSYMs): the header and load command reader, the DWARF section
/// hand-over, the symbol table resolver and the demangler on the names it finds.
///
/// The properties are ``FuzzChecks/machO(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMachO(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.machO(fuzzBytes(start, count)))
    return 0
}
