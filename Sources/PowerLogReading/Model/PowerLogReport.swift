import APMInspectCore

/// What a PowerLog history says: device, time span, per-app energy, battery, app run time, exits and screen state.
///
/// Built from one database or from several rotated files of one device merged into one history (rows repeated in
/// several files counted once). Every time carries both clocks (`PowerLogTime`). Energy is in PowerLog's own
/// units, which Apple does not document (`EnergySummary/unit`).
public struct PowerLogReport: Sendable, Equatable, Codable {
    /// The files read, in the order given.
    package var sources: [Source]
    /// The board identifier PowerLog records (`J210`, `D22AP` …), from `PLConfigAgent_EventNone_Config.Device`.
    package var device: String?
    /// The OS build (`19A404`), from `PLConfigAgent_EventNone_Config.Build`.
    package var osBuild: String?
    /// PowerLog's logging mode (`Lite`, `Full` …) and storage version, from `PLStorageOperator_EventForward_Configuration`.
    package var loggingMode: String?
    package var storageVersion: String?
    /// The device's IANA time zone at the end of the history.
    package var timeZone: String?
    /// The span of the event and aggregate tables (dictionary tables such as `EventNone` are left out).
    package var timeRange: TimeRange?
    /// The clock offsets in the history (each applies from its raw time until the next one).
    package var timeOffsets: [TimeOffset]
    /// Every table of every source, by name, with its row count.
    package var tables: [Table]
    /// Energy totals, components and hourly buckets; nil when no energy table has rows.
    package var energy: EnergySummary?
    /// Energy consumers ranked by energy, highest first (apps, daemons and hardware nodes billed to themselves).
    package var apps: [AppEnergy]
    /// Apps that used location in the background, and when.
    package var backgroundLocation: [BackgroundLocationUse]
    /// Battery history; nil when no battery table has rows.
    package var battery: Battery?
    /// Foreground and background seconds per app, most foreground time first.
    package var appRunTime: [AppRunTime]
    /// Process exits with their reason decoded, in time order.
    package var processExits: [ProcessExit]
    /// CPU, GPU and disk I/O per coalition (app or daemon), most CPU time first.
    package var coalitions: [Coalition]
    /// Screen on/off history; nil when no display table has rows.
    package var screen: Screen?
    /// Set by a summary read only: the figures its thinned and cut lists no longer show.
    package var abridged: Abridgement?

    /// A report from its parts, for a family or a test that builds one.
    package init(
        sources: [Source] = [],
        device: String? = nil,
        osBuild: String? = nil,
        loggingMode: String? = nil,
        storageVersion: String? = nil,
        timeZone: String? = nil,
        timeRange: TimeRange? = nil,
        timeOffsets: [TimeOffset] = [],
        tables: [Table] = [],
        energy: EnergySummary? = nil,
        apps: [AppEnergy] = [],
        backgroundLocation: [BackgroundLocationUse] = [],
        battery: Battery? = nil,
        appRunTime: [AppRunTime] = [],
        processExits: [ProcessExit] = [],
        coalitions: [Coalition] = [],
        screen: Screen? = nil,
        abridged: Abridgement? = nil
    ) {
        self.sources = sources
        self.device = device
        self.osBuild = osBuild
        self.loggingMode = loggingMode
        self.storageVersion = storageVersion
        self.timeZone = timeZone
        self.timeRange = timeRange
        self.timeOffsets = timeOffsets
        self.tables = tables
        self.energy = energy
        self.apps = apps
        self.backgroundLocation = backgroundLocation
        self.battery = battery
        self.appRunTime = appRunTime
        self.processExits = processExits
        self.coalitions = coalitions
        self.screen = screen
        self.abridged = abridged
    }
}
