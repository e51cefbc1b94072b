import APMInspectCore
import AppleDeviceCatalog

/// Aggregates memory-limit evidence from many JetsamEvent reports into one row per (device, OS build).
///
/// Reports are identified by incident id and crash reporter key (or by content when they have no incident id),
/// so copies count once. Beta builds, modified kernels and non-iOS reports are set aside unless asked for, since
/// their limits do not describe what shipping devices do. Evidence is small, so parallel callers collect it per
/// file and add it here in one place, in a stable order, which keeps duplicate detection exact.
public struct MemoryLimitTable: Sendable {
    /// Which reports enter the rows.
    public struct Options: Sendable, Equatable {
        /// Count reports from beta and seed builds.
        public var includeBeta: Bool
        /// Count reports from modified (jailbroken) kernels.
        public var includeModifiedKernels: Bool
        /// Count reports from macOS, watchOS and other non-iOS systems.
        public var includeOtherPlatforms: Bool

        /// Options of the table; by default beta builds, modified kernels and non-iOS reports are set aside.
        public init(
            includeBeta: Bool = false,
            includeModifiedKernels: Bool = false,
            includeOtherPlatforms: Bool = false
        ) {
            self.includeBeta = includeBeta
            self.includeModifiedKernels = includeModifiedKernels
            self.includeOtherPlatforms = includeOtherPlatforms
        }
    }

    private struct Key: Hashable {
        var product: String
        var osBuild: String
    }

    private struct Accumulator {
        var osName: String?
        var osVersion: String?
        var reports = 0
        var foreground: [UInt64] = []
        var background: [UInt64] = []
        var extensions: [UInt64] = []
        var daemonKills = 0
        var estimates: [Double] = []
        var flags: Set<String> = []
    }

    /// How evidence is read into rows.
    public var options: Options
    private var seen: Set<String> = []
    private var groups: [Key: Accumulator] = [:]
    /// Reports counted once already (same incident).
    public private(set) var duplicates = 0
    /// Reports set aside, by reason (`beta`, `modified-kernel`, `not-iOS`, and `noDevice`).
    public private(set) var excluded: [String: Int] = [:]

    /// The reason for excerpts that name no device (no `product`): never made a row, whatever the options.
    package static let noDevice = "no-device"

    /// An empty table.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Distinct reports accepted into rows.
    package var acceptedReports: Int { groups.values.reduce(0) { $0 + $1.reports } }

    /// True when a report of this incident was added before (a copy: `.ips` and `.ips.synced`, or one file twice).
    package func hasSeen(_ evidence: MemoryLimitEvidence) -> Bool {
        seen.contains(evidence.identity)
    }

    /// Adds one report's evidence; returns false when it was a duplicate or set aside.
    @discardableResult
    public mutating func add(_ evidence: MemoryLimitEvidence) -> Bool {
        guard seen.insert(evidence.identity).inserted else {
            duplicates += 1
            return false
        }
        // A lone process entry or a body cut before `product` names no device: a row under `unknown` says nothing
        // a reader can use, and the summary says what was skipped and why. `--include-all` does not bring it back.
        guard evidence.product != nil else {
            excluded[Self.noDevice, default: 0] += 1
            return false
        }
        if let reason = exclusion(of: evidence) {
            excluded[reason, default: 0] += 1
            return false
        }
        let key = Key(product: evidence.product ?? "unknown", osBuild: evidence.osBuild ?? "unknown")
        var group = groups[key] ?? Accumulator()
        group.osName = group.osName ?? evidence.osName
        group.osVersion = group.osVersion ?? evidence.osVersion
        group.reports += 1
        if let estimate = evidence.estimatedRAMMB { group.estimates.append(estimate) }
        if evidence.isBetaBuild { group.flags.insert("beta") }
        if evidence.isModifiedKernel { group.flags.insert("modified-kernel") }
        if evidence.platform != .iOS && evidence.platform != .unknown { group.flags.insert("not-iOS") }
        if !evidence.hasPageSize { group.flags.insert("no-page-size") }
        for kill in evidence.kills {
            switch kill.role {
            case .foregroundApp: group.foreground.append(kill.limitMB)
            case .backgroundApp: group.background.append(kill.limitMB)
            case .extension: group.extensions.append(kill.limitMB)
            case .daemon: group.daemonKills += 1
            }
        }
        groups[key] = group
        return true
    }

    private func exclusion(of evidence: MemoryLimitEvidence) -> String? {
        if evidence.isBetaBuild && !options.includeBeta { return "beta" }
        if evidence.isModifiedKernel && !options.includeModifiedKernels { return "modified-kernel" }
        if evidence.platform != .iOS && evidence.platform != .unknown && !options.includeOtherPlatforms {
            return "not-iOS"
        }
        return nil
    }

    /// The rows, sorted by device name (or identifier), then OS version and build.
    public var rows: [MemoryLimitRow] {
        var result: [MemoryLimitRow] = []
        for (key, group) in groups {
            let estimate =
                group.estimates.isEmpty
                ? nil : (group.estimates.reduce(0, +) / Double(group.estimates.count) * 10).rounded() / 10
            let model = DeviceCatalog.model(for: key.product)
            let resolution = DeviceCatalog.resolveRAM(for: key.product, estimatedMB: estimate)
            var flags = group.flags
            let ambiguous = (model?.ramOptionsMB.count ?? 0) > 1 && resolution == nil
            if ambiguous { flags.insert("ram-ambiguous") }
            let foreground = LimitStatistics(group.foreground)
            var percent: MemoryLimitRow.PercentStatistics?
            if let foreground, let ram = resolution?.ramMB, ram > 0 {
                func share(_ value: Double) -> Double { (value / Double(ram) * 1000).rounded() / 10 }
                percent = MemoryLimitRow.PercentStatistics(
                    min: share(Double(foreground.min)),
                    median: share(foreground.median),
                    max: share(Double(foreground.max))
                )
            }
            result.append(
                MemoryLimitRow(
                    product: key.product,
                    name: model?.name,
                    ramMB: resolution?.ramMB,
                    ramAmbiguous: ambiguous,
                    estimatedRAMMB: estimate,
                    osName: group.osName,
                    osVersion: group.osVersion,
                    osBuild: key.osBuild == "unknown" ? nil : key.osBuild,
                    reports: group.reports,
                    foregroundLimitMB: foreground,
                    foregroundPercentOfRAM: percent,
                    backgroundLimitMB: LimitStatistics(group.background),
                    extensionLimitMB: LimitStatistics(group.extensions),
                    daemonLimitKills: group.daemonKills,
                    flags: flags.sorted()
                )
            )
        }
        return result.sorted { lhs, rhs in
            let l = (lhs.name ?? lhs.product, Self.versionKey(lhs.osVersion), lhs.osBuild ?? "")
            let r = (rhs.name ?? rhs.product, Self.versionKey(rhs.osVersion), rhs.osBuild ?? "")
            if l.0 != r.0 { return l.0 < r.0 }
            if l.1 != r.1 { return l.1.lexicographicallyPrecedes(r.1) }
            if l.2 != r.2 { return l.2 < r.2 }
            return lhs.product < rhs.product
        }
    }

    private static func versionKey(_ version: String?) -> [Int] {
        (version ?? "").split(separator: ".").map { Int($0) ?? 0 }
    }
}
