import APMInspectCore
import CrashReportParsing
import FuzzSupport

/// bug_type 309 JSON crash reports, and their translation to Apple's text layout (a renderer in the library).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCrashJSON(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let parser = CrashReportParser()
    let first = try? parser.parse(bytes)
    let second = try? parser.parse(bytes)
    fuzzRequire(first == second, "two parses of the same bytes differ")
    guard let first else { return 0 }
    fuzzCheckEncodes(first.report, "the crash report")
    fuzzCheckEncodes(first.diagnostics, "the diagnostics")
    if let translated = try? CrashTextTranslator().translation(of: bytes) {
        fuzzRequire(!translated.text.isEmpty, "the translation of a parsed report is empty")
    }
    for layout in AppleTextLayout.allCases {
        _ = CrashTextTranslator(layout: layout).translate(first.report)
    }
    return 0
}
