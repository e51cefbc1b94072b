import FuzzSupport

/// One DNS message (a UDP payload, or a TCP one after its length prefix), name compression included.
///
/// The properties are ``FuzzChecks/dns(_:)-(UnsafeRawBufferPointer)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNS(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.dns(UnsafeRawBufferPointer(start: start, count: count)))
    return 0
}
