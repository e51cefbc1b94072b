/// The bounds that keep a fleet report's memory independent of how many reports it reads.
public struct FleetLimits: Sendable, Equatable {
    /// Distinct crash signatures kept as groups; later new signatures are counted, not grouped.
    public var maxGroups = 50_000
    /// App and OS versions kept per group (the newest).
    public var maxVersions = 32
    /// Devices kept per group.
    public var maxDevices = 64
    /// Days of crash counts kept per group (the newest).
    public var maxDays = 400
    /// Watchdog (reason, verdict) rows, devices with OOM kills, MetricKit versions.
    public var maxRows = 10_000
    /// Findings kept about the inputs.
    public var maxFindings = 100
    /// Report files listed per crash group (the first by bytes; the rest are counted).
    public var maxFilesPerGroup = 5
    /// Apps whose newest version is followed; versions of further apps are not compared.
    public var maxApps = 10_000
    /// Groups drawn in the per-day chart.
    public var chartGroups = 5

    /// The default limits.
    public init() {}
}
