import APMInspectCore

/// One moment as PowerLog recorded it and as a wall clock showed it.
///
/// PowerLog stamps rows with its own clock (seconds since 1970 on a "monotonic" clock that drifts from real time);
/// the wall-clock UTC time is `raw + clockOffset`, the offset being the `system` column of the
/// `PLStorageOperator_EventForward_TimeOffset` row in effect at that raw time. ``wallClock`` renders that instant
/// in the device's local time zone of the moment (from `PLLocaleAgent_EventForward_TimeZone`).
public struct PowerLogTime: Sendable, Equatable, Hashable, Codable {
    /// The timestamp as stored, on PowerLog's own clock.
    public var raw: Double
    /// Seconds added to ``raw`` to get UTC (0 when the database has no offset table).
    public var clockOffset: Double
    /// The wall-clock time with the local UTC offset; nil when the raw value is not a plausible date.
    public var wallClock: AppleTimestamp?

    public init(raw: Double, clockOffset: Double, wallClock: AppleTimestamp?) {
        self.raw = raw
        self.clockOffset = clockOffset
        self.wallClock = wallClock
    }

    /// Wall-clock seconds since 1970 UTC.
    public var utcSeconds: Double { raw + clockOffset }
}
