import APMInspectCore
import CrashReportParsing
import Symbolication
import WatchdogAnalysis

/// KSCrash JSON reports (1.x and 2.x, and the SDKs derived from it), read into the crash report model.
public struct KSCrashFamily: StandardFamily {
    /// How the family is named in diagnostics and in `--verbose` output.
    public var name: String { "KSCrash report" }

    /// The kinds of its envelopes, with their titles.
    package var kinds: KeyValuePairs<FileKind, String> { [.kscrash: "KSCrash report"] }

    /// The family; it has no options (the inspector carries them).
    public init() {}

    /// nil when the JSON is not a KSCrash report: the later families then read it as other JSON.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        // A one-line KSCrash report that mentions `os_version` sniffs as an `.ips` header.
        guard input.isJSONOrIPS, ContentSniffer.mentionsKSCrashKeys(input.bytes) else { return nil }
        let reader = KSCrashReader()
        guard let document = try? JSONDocument(bytes: input.bytes, options: reader.json) else { return nil }
        let root =
            document.isFragmentList ? document.root.elements.first { KSCrashReader.recognises($0) } : document.root
        guard let root, KSCrashReader.recognises(root) else { return nil }
        do {
            var result = try reader.parse(document)
            if let symbolicator = inspector.symbolicator {
                // Symbolication derives the facts again as an Apple report's are derived; what the KSCrash reader
                // read its own way (a hang or profile is no crash, the fault address KSCrash recorded) stays.
                let (isNotACrash, faultAddress) = (result.report.isNotACrash, result.report.exception?.faultAddress)
                let outcome = symbolicator.symbolicate(result.report)
                result.report = outcome.report
                result.diagnostics += outcome.diagnostics
                result.report.isNotACrash = isNotACrash
                if let faultAddress { result.report.exception?.faultAddress = faultAddress }
            }
            // The names KSCrash writes mangled read as every other reporter's: in every output, not only after
            // `--dsym`.
            result.report = result.report.demanglingNames()
            // A watchdog kill or an OS termination carries the watchdog object, as an Apple report's does; the kind
            // stays `kscrash`, which names the file's format.
            let report: Inspection.Report =
                WatchdogDetector.analyze(kscrash: result.report).map { .watchdog(result.report, $0) }
                ?? .crash(result.report)
            return Inspection(
                file: input.path,
                kind: .kscrash,
                diagnostics: result.diagnostics,
                report: report,
                failure: nil
            )
        } catch {
            return .failed(input.path, kind: .kscrash, diagnostics: document.diagnostics, error)
        }
    }
}
