/// Limits and thresholds for reading PowerLog databases, with safe defaults.
public struct PowerLogReadOptions: Sendable, Equatable {
    /// The most rows read from one table; later rows are ignored with a warning.
    public var maxRowsPerTable: Int
    /// The most bytes a `.PLSQL.gz` may decompress to (a guard against decompression bombs), for a database whose
    /// header does not say how long it is; one that does is decompressed only that far.
    public var maxDecompressedBytes: Int
    /// The most bytes read from a FIFO or device (held in memory, then copied to a private file for SQLite).
    public var maxStreamBytes: Int
    /// Battery samples further apart than this start a new charge or discharge session and are not used for
    /// drain rates: PowerLog stops sampling while the device is off.
    public var maxBatteryGapSeconds: Double
    /// Where temporary copies (decompressed `.gz`, WAL databases) are written; `TMPDIR` or `/tmp` when nil.
    public var temporaryDirectory: String?

    /// Options with the given limits; the defaults bound memory for any real device log.
    public init(
        maxRowsPerTable: Int = 5_000_000,
        maxDecompressedBytes: Int = 4 << 30,
        maxStreamBytes: Int = 1 << 30,
        maxBatteryGapSeconds: Double = 3 * 3600,
        temporaryDirectory: String? = nil
    ) {
        self.maxRowsPerTable = maxRowsPerTable
        self.maxDecompressedBytes = maxDecompressedBytes
        self.maxStreamBytes = maxStreamBytes
        self.maxBatteryGapSeconds = maxBatteryGapSeconds
        self.temporaryDirectory = temporaryDirectory
    }
}
