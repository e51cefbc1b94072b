extension ContentSniffer {
    /// The keys only KSCrash reports (and those of SDKs built on it) hold at their top level.
    private static let kscrashKeys: [[UInt8]] = ["\"binary_images\"", "\"recrash_report\"", "\"crash_id\""].map {
        Array($0.utf8)
    }

    /// True when the bytes may be a KSCrash report: the cheap test before the JSON is parsed and its top-level keys
    /// are checked (`KSCrashReader.recognises`).
    ///
    /// The whole input is searched, not a prefix: KSCrash writes keys in any order, and sorted output puts
    /// `report` after a hundred kilobytes of `binary_images`.
    public static func mentionsKSCrashKeys(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            if kscrashKeys.contains(where: { key in
                key.withUnsafeBufferPointer { UTF8Search.firstOffset(of: $0, in: buffer, from: 0) != nil }
            }) {
                return true
            }
            // 3.x minimal reports and SDK mocks without images: `report` next to `crash` or `system`.
            return ["\"report\"", "\"crash\""].allSatisfy { key in
                Array(key.utf8).withUnsafeBufferPointer { UTF8Search.firstOffset(of: $0, in: buffer, from: 0) != nil }
            }
        }
    }
}
