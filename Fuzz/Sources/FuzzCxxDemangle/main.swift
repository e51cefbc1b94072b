import FuzzSupport

/// Bytes as one C++ symbol name (`_Z` put before them when missing) through Symbolication's demangler.
///
/// Both styles, simplified and full. Fuzz/cxx-mangling.dict holds the Itanium mangling's operators.
///
/// The properties are ``FuzzChecks/demangle(_:as:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCxxDemangle(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.demangle(fuzzBytes(start, count), as: .cxx))
    return 0
}
