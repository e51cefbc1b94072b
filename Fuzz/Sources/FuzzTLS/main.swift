import FuzzSupport

/// The TLS scanner on a client and a server stream: the first two bytes say where the client stream ends.
///
/// The properties are ``FuzzChecks/tls(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLS(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.tls(fuzzBytes(start, count)))
    return 0
}
