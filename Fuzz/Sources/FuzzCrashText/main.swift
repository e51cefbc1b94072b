import APMInspectCore
import CrashReportParsing
import FuzzSupport

/// Crash reports in text form (and whatever else the parser is handed), with the Apple-text rendering.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCrashText(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let parser = CrashReportParser()
    let first = try? parser.parse(bytes)
    let second = try? parser.parse(bytes)
    fuzzRequire(first == second, "two parses of the same bytes differ")
    guard let first else { return 0 }
    fuzzCheckEncodes(first.report, "the crash report")
    fuzzCheckEncodes(first.diagnostics, "the diagnostics")
    for layout in AppleTextLayout.allCases {
        _ = CrashTextTranslator(layout: layout).translate(first.report)
    }
    return 0
}
