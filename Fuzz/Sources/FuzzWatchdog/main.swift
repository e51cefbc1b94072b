import FuzzSupport

/// The watchdog detector on whatever the crash parser reads.
///
/// The properties are ``FuzzChecks/watchdog(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWatchdog(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.watchdog(fuzzBytes(start, count)))
    return 0
}
