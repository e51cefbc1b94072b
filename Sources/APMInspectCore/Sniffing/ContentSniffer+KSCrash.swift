import ByteAccess

extension ContentSniffer {
    /// The keys only KSCrash reports (and those of SDKs built on it) hold at their top level.
    static let kscrashKeys: [[UInt8]] = ["\"binary_images\"", "\"recrash_report\"", "\"crash_id\""].map {
        Array($0.utf8)
    }

    /// With each other, the keys of 3.x minimal reports and SDK mocks without images.
    static let minimalKeys: [[UInt8]] = ["\"report\"", "\"crash\""].map { Array($0.utf8) }

    /// True when the bytes may be a KSCrash report: the cheap test before the JSON is parsed and its top-level keys
    /// are checked (`KSCrashReader.recognises`).
    ///
    /// The whole input is searched, not a prefix: KSCrash writes keys in any order, and sorted output puts
    /// `report` after a hundred kilobytes of `binary_images`. True when one of `kscrashKeys` occurs, or both
    /// `minimalKeys` (`report` next to `crash`).
    ///
    /// One pass over the bytes: every key starts with a quote and `b`, `r` or `c`, so only those places are
    /// compared. Five searches of the whole file, one per key, were a tenth of `scan` over JSON crash reports,
    /// which hold none of them.
    package static func mentionsKSCrashKeys(_ bytes: [UInt8]) -> Bool {
        bytes.withBorrowedBytes { buffer in
            var foundReport = false
            var foundCrash = false
            return buffer.forEachQuote(followedBy: UInt8(ascii: "b"), UInt8(ascii: "r"), UInt8(ascii: "c")) { offset in
                // The letter after the quote and the next one rule out nearly every candidate before a comparison.
                guard offset >= 0, offset + 2 < buffer.count else { return false }
                switch (buffer[unchecked: offset + 1], buffer[unchecked: offset + 2]) {
                case (UInt8(ascii: "b"), UInt8(ascii: "i")):
                    return matches(kscrashKeys[0], in: buffer, at: offset)
                case (UInt8(ascii: "r"), UInt8(ascii: "e")):
                    if matches(kscrashKeys[1], in: buffer, at: offset) { return true }
                    if !foundReport, matches(minimalKeys[0], in: buffer, at: offset) { foundReport = true }
                case (UInt8(ascii: "c"), UInt8(ascii: "r")):
                    if matches(kscrashKeys[2], in: buffer, at: offset) { return true }
                    if !foundCrash, matches(minimalKeys[1], in: buffer, at: offset) { foundCrash = true }
                default:
                    return false
                }
                return foundReport && foundCrash
            }
        }
    }

    /// True when `key` occurs in `buffer` at `offset`.
    private static func matches(_ key: [UInt8], in buffer: BorrowedBytes, at offset: Int) -> Bool {
        key.withBorrowedBytes { buffer.matches($0, at: offset) }
    }
}
