import FuzzSupport

/// KSCrash JSON reports (and SentryCrash's, Bugsnag's): the reader, its model's encoding, and the Apple text of it.
///
/// The properties are ``FuzzChecks/ksCrash(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKSCrash(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.ksCrash(fuzzBytes(start, count)))
    return 0
}
