import FuzzSupport

/// The output encoder on whatever the lenient parser reads.
///
/// The properties are ``FuzzChecks/jsonEncoder(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONEncoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.jsonEncoder(fuzzBytes(start, count)))
    return 0
}
