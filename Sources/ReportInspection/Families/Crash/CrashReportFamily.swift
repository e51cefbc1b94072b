import APMInspectCore
import CrashReportParsing
import Symbolication
import WatchdogAnalysis

/// Apple crash reports in every shape (legacy text, `.ips` 109 and 309, the crash-shaped bodies of other bug
/// types), and the watchdog terminations and stackshots among them.
public struct CrashReportFamily: StandardFamily {
    /// How the family is named in diagnostics and in `--verbose` output.
    public var name: String { "crash report" }

    /// The kinds of its envelopes, with their titles.
    package var kinds: KeyValuePairs<FileKind, String> {
        [.crashReport: "Crash report", .watchdogTermination: "Watchdog termination", .stackshot: "Stackshot"]
    }

    /// The family; it has no options (the inspector carries them).
    public init() {}

    /// The inspection of `input` when this family reads it (a failure included), or nil so the next family is asked.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard
            input.format == .crashText || (input.isJSONOrIPS && CrashReportParser.isCrashReport(input.container))
                || (input.format == .text && CrashReportParser.isSpindumpHangReport(input.container))
        else { return nil }
        return Self.inspect(input.container, path: input.path, symbolicator: inspector.symbolicator)
    }

    /// Reads a crash report (any shape); a report whose container says crash but cannot be read is a failure.
    static func inspect(_ container: IPSContainer, path: String, symbolicator: ReportSymbolicator?) -> Inspection {
        do {
            var result = try CrashReportParser().parse(container)
            if let symbolicator {
                let outcome = symbolicator.symbolicate(result.report)
                result.report = outcome.report
                result.diagnostics += outcome.diagnostics
            }
            if let watchdog = WatchdogDetector.analyze(result.report) {
                // A stackshot (0xbaaaaaad) is a snapshot, never a crash.
                let kind: FileKind = watchdog.kind == .stackshot ? .stackshot : .watchdogTermination
                return Inspection(
                    file: path,
                    kind: kind,
                    diagnostics: result.diagnostics,
                    report: .watchdog(result.report, watchdog),
                    failure: nil
                )
            }
            return Inspection(
                file: path,
                kind: .crashReport,
                diagnostics: result.diagnostics,
                report: .crash(result.report),
                failure: nil
            )
        } catch {
            if error.code == .unreadableBody, container.header == nil, container.bodyKind == .text {
                // Prose that mentions crash report fields (a README, a blog post) is not a broken report.
                return Inspection(
                    file: path,
                    kind: .unknown,
                    diagnostics: [],
                    report: .unrecognised(
                        UnrecognisedSummary(
                            format: .text,
                            bytes: container.body.count,
                            note: "text that mentions crash report fields but holds no report"
                        )
                    ),
                    failure: nil
                )
            }
            return .failed(path, kind: .crashReport, diagnostics: container.diagnostics, error)
        }
    }
}
