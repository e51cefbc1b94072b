import ArgumentParser
import Foundation
import ReportRendering

/// `--symbols` and `--symbol-cache`, shared by the commands that symbolicate (`inspect`, `scan`, `symbolicate`,
/// `translate`), so each says and reads them alike.
struct SymbolOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Where to find dSYMs by UUID (repeatable: one source each): a folder in any layout, indexed once and \
            remembered in the symbol cache, or a dSYM, Mach-O file or zip of dSYMs. \
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
            Where folder indexes are kept (when not given: $XDG_CACHE_HOME/apm-inspect/symbols, else \
            ~/.cache/apm-inspect/symbols).
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
