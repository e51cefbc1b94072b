import FuzzSupport

/// HTTP/1 messages on one reassembled stream: the first byte chooses the side and the methods to pair.
///
/// The properties are ``FuzzChecks/http1(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP1(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.http1(fuzzBytes(start, count)))
    return 0
}
