import FuzzSupport

/// The three JSON tape builders, differentially, on libFuzzer's own buffer.
///
/// The properties are ``FuzzChecks/jsonTape(_:)-(UnsafeRawBufferPointer)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONTape(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.jsonTape(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
