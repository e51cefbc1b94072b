import APMInspectCore

/// The derivations shared by the full model and the memory-limit fast path, so both give the same figures.
enum JetsamRules {
    /// Footprint bytes (`rpages × pageSize`) and, for `per-process-limit`, the limit in MB (`floor(bytes / 2^20)`).
    ///
    /// Returns nils when the page size is unknown or the product overflows 64 bits.
    static func footprint(rpages: UInt64?, pageSize: UInt64?, reason: String?) -> (bytes: UInt64?, limitMB: UInt64?) {
        guard let reason, let rpages, let pageSize else { return (nil, nil) }
        let (bytes, overflow) = rpages.multipliedReportingOverflow(by: pageSize)
        guard !overflow else { return (nil, nil) }
        return (bytes, reason == KillReason.perProcessLimit ? bytes >> 20 : nil)
    }

    /// The priority scale: from the OS major version (iOS 16 switched), else the xnu version (8792), else from the
    /// largest band in the report (anything above 21 but 999 can only be the new scale).
    static func priorityScale(
        osVersion: String?,
        platform: OSVersion.Platform,
        xnuVersion: String?,
        maxPriority: () -> Int64?
    ) -> PriorityScale {
        if let version = osVersion, let major = Int(version.prefix { $0.isNumber }),
            platform == .iOS || platform == .unknown
        {
            return major >= 16 ? .modern : .legacy
        }
        if let xnu = xnuVersion, let major = Int(xnu.prefix { $0.isNumber }) {
            return major >= 8792 ? .modern : .legacy
        }
        return (maxPriority() ?? 0) > 21 ? .modern : .legacy
    }

    /// The xnu version in a Darwin kernel string (`root:xnu-7195.40.113.0.2~22/RELEASE_ARM64_T8030`).
    static func xnuVersion(in kernel: String) -> String? {
        guard let offset = kernel.characterOffset(ofASCII: "xnu-") else { return nil }
        let after = kernel.utf8.index(kernel.startIndex, offsetBy: offset + 4)
        let version = kernel[after...].prefix { $0.isNumber || $0 == "." }
        return version.isEmpty ? nil : String(version)
    }

    /// True when a kernel string shows a modified (jailbroken) kernel.
    static func isModifiedKernel(_ kernel: String) -> Bool {
        let lower = kernel.lowercased()
        return lower.contains(ascii: "hacked") || lower.contains(ascii: "marijuan")
    }

    /// ``ramEstimateMB(active:inactive:free:wired:speculative:throttled:compressorSize:pageSize:)`` of a memory
    /// status, for the full model and the memory-limit fast path alike.
    static func ramEstimateMB(status: JetsamEvent.MemoryStatus?, pageSize: UInt64?) -> Double? {
        let pages = status?.memoryPages
        return ramEstimateMB(
            active: pages?.active,
            inactive: pages?.inactive,
            free: pages?.free,
            wired: pages?.wired,
            speculative: pages?.speculative,
            throttled: pages?.throttled,
            compressorSize: status?.compressorSize,
            pageSize: pageSize
        )
    }

    /// (active + inactive + free + speculative + wired + throttled + compressorSize) × pageSize in MiB, one decimal;
    /// nil unless active, inactive, free and wired are all present.
    static func ramEstimateMB(
        active: UInt64?,
        inactive: UInt64?,
        free: UInt64?,
        wired: UInt64?,
        speculative: UInt64?,
        throttled: UInt64?,
        compressorSize: UInt64?,
        pageSize: UInt64?
    ) -> Double? {
        guard let active, let inactive, let free, let wired, let pageSize else { return nil }
        let pages = [active, inactive, free, wired, speculative ?? 0, throttled ?? 0, compressorSize ?? 0]
        let total = pages.reduce(0.0) { $0 + Double($1) }
        return (total * Double(pageSize) / 1_048_576 * 10).rounded() / 10
    }
}
