import APMInspectCore
import CrashReportParsing
import FuzzSupport
import WatchdogAnalysis

/// The watchdog detector on whatever the crash parser makes of the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWatchdog(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    guard let parsed = try? CrashReportParser().parse(bytes) else { return 0 }
    let first = WatchdogDetector.analyze(parsed.report)
    let second = WatchdogDetector.analyze(parsed.report)
    fuzzRequire(first == second, "two analyses of the same report differ")
    if let first { fuzzCheckEncodes(first, "the watchdog termination") }
    return 0
}
