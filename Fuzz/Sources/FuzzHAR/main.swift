import FuzzSupport

/// HAR captures, read from a lenient JSON document as the command does.
///
/// The properties are ``FuzzChecks/har(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHAR(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.har(fuzzBytes(start, count)))
    return 0
}
