import FuzzSupport
import InputMutation

/// Mach-O files, thin and fat (binaries and dSYMs): the header and load command reader, the DWARF section
/// hand-over and the DWARF index with lookups, the symbol table resolver and the demanglers on every name.
///
/// The properties are ``FuzzChecks/machO(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMachO(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.machO(fuzzBytes(start, count)))
    return 0
}

/// One mutation in three from the DWARF structure mutators (``fuzzStructureMutate(_:_:_:_:family:)``).
@_cdecl("LLVMFuzzerCustomMutator")
public func mutateMachO(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    fuzzStructureMutate(data, size, maxSize, seed, family: .machO)
}
