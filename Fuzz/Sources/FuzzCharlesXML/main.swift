import FuzzSupport

/// Charles XML sessions (.chlsx), parsed with libxml2 (not instrumented: coverage is the mapping code's).
///
/// The properties are ``FuzzChecks/charlesXML(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCharlesXML(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.charlesXML(fuzzBytes(start, count)))
    return 0
}
