import ArgumentParser
import Foundation
import ReportRendering

/// `--symbols` and `--symbol-cache`, shared by the commands that symbolicate (`inspect`, `scan`, `symbolicate`,
/// `translate`, `report`), so each says and reads them alike.
struct SymbolOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Where to find dSYMs by UUID (repeatable: one source each): a folder in any layout, indexed once and \
            remembered in the symbol cache, or a dSYM, Mach-O file or zip of dSYMs; or a symbol server, \
            http(s)://BASE or s3://BUCKET/PREFIX in Sentry's unified layout, lldb+https://… or lldb+s3://… in \
            lldb's folder layout (docs/symbolication.md). \
            \(SymbolSources.environmentVariable) adds sources for every run, separated by commas.
            """,
            valueName: "source"
        )
    )
    var symbols: [String] = []

    @Option(
        name: .customLong("symbol-cache"),
        help: ArgumentHelp(
            """
            Where folder indexes and downloaded symbols are kept (when not given: \
            $XDG_CACHE_HOME/apm-inspect/symbols, else ~/.cache/apm-inspect/symbols); \
            APM_INSPECT_SYMBOL_CACHE_SIZE bounds the downloads (10G unless set).
            """,
            valueName: "dir"
        )
    )
    var symbolCache: String?

    /// The sources of the options and the environment.
    var sources: SymbolSources {
        SymbolSources(options: symbols, cache: symbolCache, environment: ProcessInfo.processInfo.environment)
    }
}
