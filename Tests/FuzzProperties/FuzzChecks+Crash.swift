import APMInspectCore
import CrashReportParsing
import WatchdogAnalysis

extension FuzzChecks {
    /// `FuzzCrashText` and `FuzzCrashJSON`: parses are deterministic, the report and its diagnostics print as strict
    /// JSON, it renders in every Apple text layout, and a translation, when one is made, is not empty.
    public static func crashReport(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        let parser = CrashReportParser()
        let first = try? parser.parse(bytes)
        let second = try? parser.parse(bytes)
        found.require(first == second, "two parses of the same bytes differ")
        guard let first else { return found }
        found.requireEncodes(first.report, "the crash report")
        found.requireEncodes(first.diagnostics, "the diagnostics")
        if let translated = try? CrashTextTranslator().translation(of: bytes) {
            found.require(!translated.text.isEmpty, "the translation of a parsed report is empty")
        }
        for layout in AppleTextLayout.allCases {
            _ = CrashTextTranslator(layout: layout).translate(first.report)
        }
        return found
    }

    /// `FuzzWatchdog`: the detector is deterministic and its verdict prints as strict JSON.
    public static func watchdog(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        guard let parsed = try? CrashReportParser().parse(bytes) else { return found }
        let first = WatchdogDetector.analyze(parsed.report)
        let second = WatchdogDetector.analyze(parsed.report)
        found.require(first == second, "two analyses of the same report differ")
        if let first { found.requireEncodes(first, "the watchdog termination") }
        return found
    }

    /// `FuzzKSCrash`: KSCrash JSON reports (and SentryCrash's, Bugsnag's) read alike twice, encode as strict JSON,
    /// and render as Apple's text in both layouts.
    public static func ksCrash(_ bytes: [UInt8]) -> FuzzFindings {
        var found = FuzzFindings()
        let reader = KSCrashReader()
        let first = try? reader.parse(bytes)
        let second = try? reader.parse(bytes)
        found.require(first == second, "two parses of the same bytes differ")
        _ = ContentSniffer.mentionsKSCrashKeys(bytes)
        guard let first else { return found }
        found.requireEncodes(first.report, "the crash report")
        found.requireEncodes(first.diagnostics, "the diagnostics")
        for layout in AppleTextLayout.allCases {
            let text = CrashTextTranslator(layout: layout).translate(first.report)
            found.require(!text.isEmpty, "the translation of a parsed report is empty")
        }
        if let translated = try? CrashTextTranslator().translation(ofKSCrash: bytes) {
            found.require(!translated.text.isEmpty, "the translation of a KSCrash report is empty")
        }
        return found
    }
}
