import APMInspectCore
import CrashReportParsing

/// A crash report's bytes in, the same report symbolicated in its own layout out: a JSON `.ips` stays JSON (see
/// ``IPSReportRewriter``), text stays text (see ``TextReportRewriter``).
package enum ReportRewriter {
    /// What symbolicating one report's bytes gave.
    package struct Result: Sendable {
        /// The report to write: the input's bytes when nothing was resolved.
        package var bytes: [UInt8]
        /// The symbolicated model.
        package var report: CrashReport
        /// What parsing found, then one per image without usable debug information.
        package var diagnostics: [Diagnostic]
        package var resolvedFrames: Int
    }

    /// - Throws: `CrashParseError` when the bytes are not a crash report.
    package static func rewrite(
        _ bytes: [UInt8],
        with symbolicator: ReportSymbolicator
    ) throws(CrashParseError) -> Result {
        let container = IPSContainer(bytes: bytes)
        let parsed = try CrashReportParser().parse(container)
        let outcome = symbolicator.symbolicate(parsed.report)
        var result = Result(
            bytes: bytes,
            report: outcome.report,
            diagnostics: parsed.diagnostics + outcome.diagnostics,
            resolvedFrames: outcome.resolvedFrames
        )
        guard outcome.isChanged else { return result }
        switch parsed.report.sourceFormat {
        case .ips309:
            if let rewritten = IPSReportRewriter.rewrite(bytes, original: parsed.report, outcome: outcome) {
                result.bytes = rewritten
            } else {
                result.diagnostics.append(
                    Diagnostic(
                        .warning,
                        .symbolicateBodyNotRewritten,
                        "the JSON body cannot be rewritten in place: the report is written unchanged"
                    )
                )
            }
        case .kscrash:
            result.diagnostics.append(
                Diagnostic(
                    .warning,
                    .symbolicateKSCrashUnchanged,
                    "a KSCrash report is written unchanged: --format json gives it symbolicated"
                )
            )
        case .spindump:
            result.diagnostics.append(
                Diagnostic(
                    .warning,
                    .symbolicateSpindumpUnchanged,
                    "a spindump hang report is written unchanged: --format json gives it symbolicated"
                )
            )
        case .ipsText, .text, .translatedText, .fragment:
            result.bytes = TextReportRewriter.rewrite(bytes, original: parsed.report, outcome: outcome)
        }
        return result
    }
}
