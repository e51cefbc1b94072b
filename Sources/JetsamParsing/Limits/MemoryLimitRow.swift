import APMInspectCore

/// One row of the memory-limit table: a device model on one OS build, and the limits its reports show.
public struct MemoryLimitRow: Sendable, Equatable, Codable {
    /// Model identifier, such as `iPhone8,2`.
    public var product: String
    /// Marketing name, when the catalog knows the identifier.
    public var name: String?
    /// Installed RAM in MiB (the catalog's value, resolved with the reports' estimate when it varies by storage).
    public var ramMB: Int?
    /// True when the device ships with several RAM sizes and the reports could not tell which.
    public var ramAmbiguous: Bool
    /// Mean RAM estimated from the reports' page counts, in MiB.
    public var estimatedRAMMB: Double?
    /// The OS name of the row's reports.
    public var osName: String?
    /// The OS version of the row's reports: limits change between versions.
    public var osVersion: String?
    /// The OS build of the row's reports.
    public var osBuild: String?
    /// Distinct incidents read for this row (duplicates counted once).
    public var reports: Int
    /// Limits of apps killed while on screen: the app memory limit.
    public var foregroundLimitMB: LimitStatistics?
    /// The foreground limits as a share of ``ramMB``, in percent.
    public var foregroundPercentOfRAM: PercentStatistics?
    /// Limits of apps killed while not on screen (the lower inactive limit).
    public var backgroundLimitMB: LimitStatistics?
    /// Limits of app extensions and per-app services.
    public var extensionLimitMB: LimitStatistics?
    /// `per-process-limit` kills of daemons: never counted as app limits.
    public var daemonLimitKills: Int
    /// Why the row deserves care: `beta`, `modified-kernel`, `not-iOS`, `ram-ambiguous`, `no-page-size`.
    public var flags: [String]

    package init(
        product: String,
        name: String?,
        ramMB: Int?,
        ramAmbiguous: Bool,
        estimatedRAMMB: Double?,
        osName: String?,
        osVersion: String?,
        osBuild: String?,
        reports: Int,
        foregroundLimitMB: LimitStatistics?,
        foregroundPercentOfRAM: PercentStatistics?,
        backgroundLimitMB: LimitStatistics?,
        extensionLimitMB: LimitStatistics?,
        daemonLimitKills: Int,
        flags: [String]
    ) {
        self.product = product
        self.name = name
        self.ramMB = ramMB
        self.ramAmbiguous = ramAmbiguous
        self.estimatedRAMMB = estimatedRAMMB
        self.osName = osName
        self.osVersion = osVersion
        self.osBuild = osBuild
        self.reports = reports
        self.foregroundLimitMB = foregroundLimitMB
        self.foregroundPercentOfRAM = foregroundPercentOfRAM
        self.backgroundLimitMB = backgroundLimitMB
        self.extensionLimitMB = extensionLimitMB
        self.daemonLimitKills = daemonLimitKills
        self.flags = flags
    }

    /// A limit's share of RAM: minimum, median and maximum, rounded to 0.1 %.
    public struct PercentStatistics: Sendable, Equatable, Codable {
        /// The lowest share seen, in percent.
        public var min: Double
        /// The middle share, in percent.
        public var median: Double
        /// The highest share seen, in percent.
        public var max: Double

        package init(min: Double, median: Double, max: Double) {
            self.min = min
            self.median = median
            self.max = max
        }
    }
}
