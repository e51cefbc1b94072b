import APMInspectCore
import CrashReportParsing
import Symbolication

/// `--dsym`: the store of debug information the user gave, and the report symbolicator over it, shared by the
/// commands that take the option (`symbolicate`, `inspect`, `translate`, `scan`).
struct ReportSymbolication: Sendable {
    let store: DSYMStore
    let symbolicator: ReportSymbolicator

    /// Indexes `paths` and says on standard error what could not be used; nil when no path was given.
    static func make(dsymPaths paths: [String], force: Bool = false) -> ReportSymbolication? {
        guard !paths.isEmpty else { return nil }
        let store = DSYMStore(paths: paths, loader: MachODebugImageLoader())
        for finding in store.findings {
            Console.error(
                ErrorLine.render(path: "--dsym", location: nil, message: finding.message, severity: finding.severity.rawValue)
            )
        }
        return ReportSymbolication(
            store: store,
            symbolicator: ReportSymbolicator(source: store, force: force, demangle: Self.demangle)
        )
    }

    /// Names as people read them; the mangled name stays in the model.
    static let demangle: @Sendable (String) -> String? = { _ in nil }

    /// The report in `bytes` symbolicated and written in its own layout: a JSON `.ips` stays JSON, text stays text.
    ///
    /// - Throws: ``CrashParseError`` when the bytes are not a crash report.
    func rewrite(_ bytes: [UInt8]) throws(CrashParseError) -> (
        bytes: [UInt8], report: CrashReport, diagnostics: [Diagnostic]
    ) {
        let container = IPSContainer(bytes: bytes)
        let parsed = try CrashReportParser().parse(container)
        let outcome = symbolicator.symbolicate(parsed.report)
        var diagnostics = parsed.diagnostics + outcome.diagnostics
        guard outcome.isChanged else { return (bytes, outcome.report, diagnostics) }
        switch parsed.report.sourceFormat {
        case .ips309:
            if let rewritten = IPSReportRewriter.rewrite(bytes, original: parsed.report, outcome: outcome) {
                return (rewritten, outcome.report, diagnostics)
            }
            diagnostics.append(
                Diagnostic(.warning, "the JSON body cannot be rewritten in place: the report is written unchanged")
            )
            return (bytes, parsed.report, diagnostics)
        case .kscrash:
            diagnostics.append(
                Diagnostic(.warning, "a KSCrash report is written unchanged: --format json gives it symbolicated")
            )
            return (bytes, outcome.report, diagnostics)
        case .ipsText, .text, .translatedText, .fragment:
            return (TextReportRewriter.rewrite(bytes, original: parsed.report, outcome: outcome), outcome.report, diagnostics)
        }
    }
}
