import FuzzSupport

/// Crash reports in JSON form (bug_type 309), with the Apple-text rendering and translation.
///
/// The properties are ``FuzzChecks/crashReport(_:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCrashJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    fuzzRequire(FuzzChecks.crashReport(fuzzBytes(start, count)))
    return 0
}
