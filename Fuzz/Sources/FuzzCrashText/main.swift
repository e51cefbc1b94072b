import FuzzSupport

/// Crash reports in text form (and whatever else the parser is handed), with the Apple-text rendering.
///
/// The properties are ``FuzzChecks/crashReport(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCrashText(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.crashReport(fuzzBytes(start, count)))
    return 0
}
