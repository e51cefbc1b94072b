import APMInspectCore
import CrashReportParsing
import Symbolication

/// `--dsym`: the store of debug information the user gave, and the report symbolicator over it, shared by the
/// commands that take the option (`symbolicate`, `inspect`, `translate`, `scan`).
package struct ReportSymbolication: Sendable {
    package let store: DSYMStore
    package let symbolicator: ReportSymbolicator

    /// Indexes `paths` and says on `sink`'s standard error what could not be used; nil when no path was given.
    package static func make(dsymPaths paths: [String], force: Bool = false, sink: OutputSink)
        -> ReportSymbolication?
    {
        guard !paths.isEmpty else { return nil }
        let store = DSYMStore(paths: paths, loader: MachODebugImageLoader())
        for finding in store.findings {
            sink.error(
                ErrorLine.render(
                    path: "--dsym",
                    location: nil,
                    message: finding.message,
                    severity: finding.severity.rawValue
                )
            )
        }
        return ReportSymbolication(
            store: store,
            symbolicator: ReportSymbolicator(source: store, force: force)
        )
    }

    /// The report in `bytes` symbolicated and written in its own layout (see ``ReportRewriter``).
    ///
    /// - Throws: ``CrashParseError`` when the bytes are not a crash report.
    package func rewrite(_ bytes: [UInt8]) throws(CrashParseError) -> ReportRewriter.Result {
        try ReportRewriter.rewrite(bytes, with: symbolicator)
    }
}
