import FuzzSupport

/// Charles JSON sessions (.chlsj), read from a lenient JSON document as the command does.
///
/// The properties are ``FuzzChecks/charlesJSON(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCharlesJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.charlesJSON(fuzzBytes(start, count)))
    return 0
}
