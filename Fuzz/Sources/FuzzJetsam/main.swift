import FuzzSupport

/// The JetsamEvent full model.
///
/// The properties are ``FuzzChecks/jetsam(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJetsam(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.jetsam(fuzzBytes(start, count)))
    return 0
}
