import FuzzSupport

/// The memory-limit fast path, checked against the evidence of the full model.
///
/// The properties are ``FuzzChecks/jetsamLimits(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJetsamLimits(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.jetsamLimits(fuzzBytes(start, count)))
    return 0
}
