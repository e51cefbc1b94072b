import APMInspectCore
import CrashReportParsing
import FuzzSupport

/// KSCrash JSON reports (and SentryCrash's, Bugsnag's): the reader, its model's encoding, and the Apple text of it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKSCrash(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = fuzzBytes(start, count)
    let reader = KSCrashReader()
    let first = try? reader.parse(bytes)
    let second = try? reader.parse(bytes)
    fuzzRequire(first == second, "two parses of the same bytes differ")
    _ = ContentSniffer.mentionsKSCrashKeys(bytes)
    guard let first else { return 0 }
    fuzzCheckEncodes(first.report, "the crash report")
    fuzzCheckEncodes(first.diagnostics, "the diagnostics")
    for layout in AppleTextLayout.allCases {
        let text = CrashTextTranslator(layout: layout).translate(first.report)
        fuzzRequire(!text.isEmpty, "the translation of a parsed report is empty")
    }
    if let translated = try? CrashTextTranslator().translation(ofKSCrash: bytes) {
        fuzzRequire(!translated.text.isEmpty, "the translation of a KSCrash report is empty")
    }
    return 0
}
