import APMInspectCore
import Foundation
import SymbolServers
import Symbolication

/// Where symbols come from besides `--dsym`: the `--symbols` sources and the `APM_INSPECT_SYMBOLS` environment
/// variable (sources separated by commas), and the cache that keeps what was learnt of them between runs.
package struct SymbolSources: Sendable, Equatable {
    /// Local paths: folders (indexed once, the index kept in the cache), dSYM bundles, Mach-O files, zips.
    package var local: [String] = []
    /// Symbol servers and S3 buckets, asked in order for the UUIDs no local source has.
    package var servers: [SymbolServer] = []
    /// Sources that look like servers but cannot be used, as given, with why: each is said and skipped.
    package var rejected: [(source: String, reason: String)] = []
    /// Where folder indexes and downloads are kept; nil when there is nowhere to keep them (every run reads every
    /// file, downloads go to a temporary folder).
    package var cacheDirectory: String?
    /// Download and cache bounds, from the environment (``SymbolDownloadLimits/init(environment:)``).
    package var limits = SymbolDownloadLimits()
    /// The environment the sources were read with: S3's region, endpoint and keys come from it.
    package var environment: [String: String] = [:]

    /// The environment variable that lists sources for every run, separated by commas.
    package static let environmentVariable = "APM_INSPECT_SYMBOLS"

    package init() {}

    /// `SIZE` as `--symbol-cache-size` and `APM_INSPECT_SYMBOL_CACHE_SIZE` take it (`1500`, `512K`, `200M`, `10G`,
    /// powers of 1024); nil for anything else.
    package static func cacheBytes(_ text: String) -> Int64? { SymbolDownloadLimits.byteCount(text) }

    /// The sources of `--symbols` (each value one source) after those of the environment, and the cache folder:
    /// `--symbol-cache`, else `$XDG_CACHE_HOME/apm-inspect/symbols`, else `$HOME/.cache/apm-inspect/symbols`.
    package init(options: [String], cache: String?, environment: [String: String]) {
        let fromEnvironment = (environment[Self.environmentVariable] ?? "").split(separator: ",").map {
            String($0).trimmingCharacters(in: .whitespaces)
        }
        for source in fromEnvironment + options where !source.isEmpty {
            if Self.isNetworkSource(source) {
                switch SymbolServer.parse(source) {
                case .success(let server): servers.append(server)
                case .failure(let error): rejected.append((source, error.message))
                }
            } else {
                local.append(source)
            }
        }
        limits = SymbolDownloadLimits(environment: environment)
        self.environment = environment
        if let cache, !cache.isEmpty {
            cacheDirectory = cache
        } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            cacheDirectory = xdg + "/apm-inspect/symbols"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            cacheDirectory = home + "/.cache/apm-inspect/symbols"
        }
    }

    /// True when nothing but `--dsym` gives symbols.
    package var isEmpty: Bool { local.isEmpty && servers.isEmpty && rejected.isEmpty }

    package static func == (lhs: SymbolSources, rhs: SymbolSources) -> Bool {
        lhs.local == rhs.local && lhs.servers == rhs.servers && lhs.cacheDirectory == rhs.cacheDirectory
            && lhs.limits == rhs.limits && lhs.environment == rhs.environment
            && lhs.rejected.map(\.source) == rhs.rejected.map(\.source)
    }

    /// A symbol server or a bucket: `http://`, `https://`, `s3://`, or one of them after a layout (`unified+`,
    /// `lldb+`).
    static func isNetworkSource(_ source: String) -> Bool {
        var scheme = Substring(source)
        for layout in ["unified+", "lldb+"] where scheme.hasPrefix(layout) {
            scheme = scheme.dropFirst(layout.count)
        }
        return ["http://", "https://", "s3://"].contains { scheme.lowercased().hasPrefix($0) }
    }
}
