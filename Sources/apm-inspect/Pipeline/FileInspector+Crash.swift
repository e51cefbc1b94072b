import APMInspectCore
import CrashReportParsing
import WatchdogAnalysis

extension FileInspector {
    /// Reads a crash report (any shape); a report whose container says crash but cannot be read is a failure.
    func inspectCrash(_ container: IPSContainer, path: String) -> Inspection {
        do {
            var result = try CrashReportParser().parse(container)
            if let symbolicator = symbolication?.symbolicator {
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
            return Inspection(
                file: path,
                kind: .crashReport,
                diagnostics: container.diagnostics,
                report: nil,
                failure: Inspection.Failure(code: error.code.rawValue, message: error.message, location: error.location)
            )
        }
    }
}
