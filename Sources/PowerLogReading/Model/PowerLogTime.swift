import APMInspectCore

/// One moment as PowerLog recorded it and as a wall clock showed it.
///
/// PowerLog stamps rows with its own clock (seconds since 1970 on a "monotonic" clock that drifts from real time);
/// the wall-clock UTC time is `raw + clockOffset`, the offset being the `system` column of the
/// `PLStorageOperator_EventForward_TimeOffset` row in effect at that raw time. ``wallClock`` renders that instant
/// in the device's local time zone of the moment (from `PLLocaleAgent_EventForward_TimeZone`).
///
/// Every row of a database carries one of these, so it is kept small: a time read from a database stores only the
/// local UTC offset, and ``wallClock`` is rebuilt from it exactly as the reader built it before (with the
/// `AppleTimestamp` stored the time took 96 bytes on x86_64, now 24: 72 MB less per million battery samples). A
/// wall clock given to `init(raw:clockOffset:wallClock:)` or set that the offset cannot rebuild is kept as given.
package struct PowerLogTime: Sendable, Equatable, Hashable, Codable {
    /// Where ``wallClock`` comes from.
    private enum WallClock: Sendable {
        /// `AppleTimestamp.fromSeconds(raw + clockOffset, utcOffset:)` with this offset; ``PowerLogTime/noOffset``
        /// stands for nil.
        case local(Int32)
        /// A value the offset does not rebuild, kept as given (boxed, so the common case stays small).
        indirect case given(AppleTimestamp?)
    }

    /// An offset outside ±18 h, for which `fromSeconds` gives nil.
    private static let noOffset = Int32.min

    private var storedRaw: Double
    private var storedClockOffset: Double
    private var storedWallClock: WallClock

    /// The timestamp as stored, on PowerLog's own clock.
    package var raw: Double {
        get { storedRaw }
        set {
            freezeWallClock()
            storedRaw = newValue
        }
    }

    /// Seconds added to ``raw`` to get UTC (0 when the database has no offset table).
    package var clockOffset: Double {
        get { storedClockOffset }
        set {
            freezeWallClock()
            storedClockOffset = newValue
        }
    }

    /// The wall-clock time with the local UTC offset; nil when the raw value is not a plausible date.
    package var wallClock: AppleTimestamp? {
        get {
            switch storedWallClock {
            case .local(let offset): AppleTimestamp.fromSeconds(utcSeconds, utcOffset: Int(offset))
            case .given(let value): value
            }
        }
        set { storedWallClock = Self.storage(for: newValue, utc: utcSeconds) }
    }

    package init(raw: Double, clockOffset: Double, wallClock: AppleTimestamp?) {
        storedRaw = raw
        storedClockOffset = clockOffset
        storedWallClock = Self.storage(for: wallClock, utc: raw + clockOffset)
    }

    /// A time whose wall clock is `raw + clockOffset` shown `utcOffset` seconds east of UTC (nil when that is not a
    /// plausible date), as ``PowerLogClock`` reads every row.
    init(raw: Double, clockOffset: Double, utcOffset: Int) {
        storedRaw = raw
        storedClockOffset = clockOffset
        storedWallClock = .local(Int32(exactly: utcOffset) ?? Self.noOffset)
    }

    /// Wall-clock seconds since 1970 UTC.
    package var utcSeconds: Double { raw + clockOffset }

    /// The compact form when the offset rebuilds `value` exactly, the value itself otherwise.
    private static func storage(for value: AppleTimestamp?, utc: Double) -> WallClock {
        guard let value else { return .local(noOffset) }
        if let offset = Int32(exactly: value.utcOffsetSeconds),
            AppleTimestamp.fromSeconds(utc, utcOffset: value.utcOffsetSeconds) == value
        {
            return .local(offset)
        }
        return .given(value)
    }

    /// Before `raw` or `clockOffset` changes: the wall clock was a value of its own, not derived from them.
    private mutating func freezeWallClock() {
        if case .local = storedWallClock { storedWallClock = .given(wallClock) }
    }

    // The conformances below are what the compiler synthesised for the three stored properties `raw`,
    // `clockOffset`, `wallClock`: same comparison, hashing, keys and key order.

    package static func == (lhs: PowerLogTime, rhs: PowerLogTime) -> Bool {
        guard lhs.raw == rhs.raw, lhs.clockOffset == rhs.clockOffset else { return false }
        // Equal raw and offset give an equal UTC value, so one local offset rebuilds one wall clock.
        if case .local(let a) = lhs.storedWallClock, case .local(let b) = rhs.storedWallClock, a == b { return true }
        return lhs.wallClock == rhs.wallClock
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(raw)
        hasher.combine(clockOffset)
        hasher.combine(wallClock)
    }

    private enum CodingKeys: String, CodingKey {
        case raw
        case clockOffset
        case wallClock
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            raw: try container.decode(Double.self, forKey: .raw),
            clockOffset: try container.decode(Double.self, forKey: .clockOffset),
            wallClock: try container.decodeIfPresent(AppleTimestamp.self, forKey: .wallClock)
        )
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(raw, forKey: .raw)
        try container.encode(clockOffset, forKey: .clockOffset)
        try container.encodeIfPresent(wallClock, forKey: .wallClock)
    }
}
