import FuzzSupport

/// Bytes as one Swift symbol name (`$s` put before them when missing) through Symbolication's demangler.
///
/// Both styles, simplified and full. Fuzz/swift-mangling.dict holds the mangling's operators.
///
/// The properties are ``FuzzChecks/demangle(_:as:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSwiftDemangle(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.demangle(fuzzBytes(start, count), as: .swift))
    return 0
}
