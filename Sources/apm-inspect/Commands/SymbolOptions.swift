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
            remembered in the symbol cache, or a dSYM, Mach-O file, zip of dSYMs or dyld shared cache (its \
            subcaches and .symbols file beside it); or a symbol server, \
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
            $XDG_CACHE_HOME/apm-inspect/symbols, else ~/.cache/apm-inspect/symbols).
            """,
            valueName: "dir"
        )
    )
    var symbolCache: String?

    @Option(
        name: .customLong("symbol-cache-size"),
        help: ArgumentHelp(
            """
            What the downloaded symbols in the cache may hold, in bytes or with K, M, G, T (powers of 1024): the \
            files read longest ago are removed past it (10G, or APM_INSPECT_SYMBOL_CACHE_SIZE, when not given).
            """,
            valueName: "size"
        )
    )
    var symbolCacheSize: String?

    func validate() throws {
        if let size = symbolCacheSize, SymbolSources.cacheBytes(size) == nil {
            throw ValidationError(
                "--symbol-cache-size: \(size.debugDescription) is not a size (a number of bytes, or with K, M, G, T)"
            )
        }
    }

    /// The sources of the options and the environment.
    var sources: SymbolSources {
        var sources = SymbolSources(
            options: symbols,
            cache: symbolCache,
            environment: ProcessInfo.processInfo.environment
        )
        if let size = symbolCacheSize.flatMap(SymbolSources.cacheBytes) { sources.limits.cacheBytes = size }
        return sources
    }
}
