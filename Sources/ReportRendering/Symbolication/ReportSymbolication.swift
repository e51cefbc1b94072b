import APMInspectCore
import CrashReportParsing
import SymbolServers
import Symbolication

/// `--dsym`: the store of debug information the user gave, and the report symbolicator over it, shared by the
/// commands that take the option (`symbolicate`, `inspect`, `translate`, `scan`).
package struct ReportSymbolication: Sendable {
    package let store: DSYMStore
    package let symbolicator: ReportSymbolicator
    /// What downloads from the `--symbols` servers; nil when none is given.
    package let fetcher: SymbolFetcher?

    /// Indexes `paths` and the `--symbols` sources as one set and says on `sink`'s standard error what could not
    /// be used; nil when neither gave anything to search.
    package static func make(
        dsymPaths paths: [String],
        symbols: SymbolSources = SymbolSources(),
        force: Bool = false,
        sink: OutputSink
    ) -> ReportSymbolication? {
        for (source, reason) in symbols.rejected {
            sink.error(
                ErrorLine.render(
                    path: "--symbols " + source,
                    location: nil,
                    message: reason + "; the source is skipped",
                    severity: "warning"
                )
            )
        }
        guard !paths.isEmpty || !symbols.local.isEmpty || !symbols.servers.isEmpty else { return nil }
        let (store, _, _) = DSYMStore.indexed(
            dsymPaths: paths,
            sourceFolders: symbols.local,
            cacheDirectory: symbols.cacheDirectory
        )
        // With symbol servers alone nothing local was asked for, so "no dSYM found" would name nothing.
        let askedLocally = !paths.isEmpty || !symbols.local.isEmpty
        for finding in store.findings where askedLocally || finding.code != .dsymNoneFound {
            sink.error(
                ErrorLine.render(
                    path: paths.isEmpty ? "--symbols" : "--dsym",
                    location: nil,
                    message: finding.message,
                    severity: finding.severity.rawValue
                )
            )
        }
        guard !symbols.servers.isEmpty else {
            return ReportSymbolication(
                store: store,
                symbolicator: ReportSymbolicator(source: store, force: force),
                fetcher: nil
            )
        }
        let fetcher = SymbolFetcher(
            servers: symbols.servers,
            cacheDirectory: symbols.cacheDirectory,
            limits: symbols.limits,
            environment: symbols.environment
        ) { diagnostic in
            sink.error(
                ErrorLine.render(
                    path: "--symbols",
                    location: nil,
                    message: diagnostic.message,
                    severity: diagnostic.severity.rawValue
                )
            )
        }
        let source = NetworkSymbolSource(
            local: store.entries.isEmpty ? nil : store,
            fetcher: fetcher,
            loader: MachODebugImageLoader()
        )
        return ReportSymbolication(
            store: store,
            symbolicator: ReportSymbolicator(source: source, force: force),
            fetcher: fetcher
        )
    }

    /// The report in `bytes` symbolicated and written in its own layout (see ``ReportRewriter``).
    ///
    /// - Throws: ``CrashParseError`` when the bytes are not a crash report.
    package func rewrite(_ bytes: [UInt8]) throws(CrashParseError) -> ReportRewriter.Result {
        try ReportRewriter.rewrite(bytes, with: symbolicator)
    }
}
