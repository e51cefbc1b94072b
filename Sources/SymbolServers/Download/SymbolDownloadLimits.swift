import Foundation

/// Bounds on what fetching symbols may cost: every input is hostile, servers included.
package struct SymbolDownloadLimits: Sendable, Equatable {
    /// The largest file downloaded (2 GiB): a bigger one is abandoned as it arrives.
    package var maxBytes: Int64 = 2 << 30
    /// Seconds to open a connection.
    package var connectSeconds: Int64 = 10
    /// Seconds without a byte from the server before a download is abandoned.
    package var readSeconds: Int64 = 60
    /// Seconds one download may take in all.
    package var totalSeconds: Int64 = 600
    /// What the download cache may hold (10 GiB); the files read longest ago go first when it is over.
    package var cacheBytes: Int64 = 10 << 30
    /// Seconds a UUID a server did not have is not asked again, by any process using the same cache (10 minutes;
    /// 0 asks again every run).
    ///
    /// Within one run a UUID is asked once whatever this says.
    package var missingSeconds: Int64 = 600

    package init() {}

    /// The defaults, changed by `APM_INSPECT_SYMBOL_DOWNLOAD_LIMIT` (bytes; `K`, `M`, `G` suffixes),
    /// `APM_INSPECT_SYMBOL_TIMEOUT` (seconds for a whole download), `APM_INSPECT_SYMBOL_CACHE_SIZE` (bytes, suffixes
    /// alike) and `APM_INSPECT_SYMBOL_MISSING_TTL` (seconds) where they hold such numbers.
    package init(environment: [String: String]) {
        if let bytes = environment["APM_INSPECT_SYMBOL_DOWNLOAD_LIMIT"].flatMap(Self.byteCount), bytes > 0 {
            maxBytes = bytes
        }
        if let seconds = environment["APM_INSPECT_SYMBOL_TIMEOUT"].flatMap({ Int64($0) }), seconds > 0 {
            totalSeconds = min(seconds, 86_400)
            readSeconds = min(readSeconds, totalSeconds)
            connectSeconds = min(connectSeconds, totalSeconds)
        }
        if let bytes = environment["APM_INSPECT_SYMBOL_CACHE_SIZE"].flatMap(Self.byteCount), bytes >= 0 {
            cacheBytes = bytes
        }
        if let seconds = environment["APM_INSPECT_SYMBOL_MISSING_TTL"].flatMap({ Int64($0) }), seconds >= 0 {
            missingSeconds = min(seconds, 30 * 86_400)
        }
    }

    /// `1500`, `512K`, `200M`, `10G` (powers of 1024); nil for anything else or a value past 2^62.
    package static func byteCount(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let shifts: [Character: Int64] = ["K": 10, "M": 20, "G": 30, "T": 40]
        var digits = Substring(trimmed)
        var shift: Int64 = 0
        if let last = digits.last, let value = shifts[last] {
            shift = value
            digits = digits.dropLast()
        }
        if digits.hasSuffix("I") || digits.hasSuffix("B") { return nil }
        guard let number = Int64(digits), number >= 0, number <= (Int64(1) << (62 - shift)) else { return nil }
        return number << shift
    }
}
