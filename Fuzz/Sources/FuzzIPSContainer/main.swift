import FuzzSupport

/// The `.ips` container split and its JSON body.
///
/// The properties are ``FuzzChecks/ipsContainer(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIPSContainer(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.ipsContainer(fuzzBytes(start, count)))
    return 0
}
