import APMInspectCore

/// Limits for reading JetsamEvent reports; the defaults are safe for hostile input.
public struct JetsamParseOptions: Sendable, Equatable {
    /// Limits of the JSON reader (depth, size) and whether pasted, non-strict JSON is accepted.
    public var json: JSONParseOptions
    /// Most process entries read from one report; the rest are counted and reported in a diagnostic.
    public var maxProcesses: Int
    /// Most unknown or mistyped values kept verbatim in `unknownKeys`, all levels of the report together.
    ///
    /// The rest are counted in one warning. As for crash reports: a body of millions of small unknown members would
    /// otherwise hold a decoded value for each, several times its size in the file.
    public var maxUnknownEntries: Int
    /// Most bytes of the file (key and value text) kept that way.
    public var maxUnknownBytes: Int

    /// Options with the given limits; the defaults bound memory for hostile input.
    public init(
        json: JSONParseOptions = JSONParseOptions(),
        maxProcesses: Int = 100_000,
        maxUnknownEntries: Int = 10_000,
        maxUnknownBytes: Int = 1 << 20
    ) {
        self.json = json
        self.maxProcesses = maxProcesses
        self.maxUnknownEntries = max(0, maxUnknownEntries)
        self.maxUnknownBytes = max(0, maxUnknownBytes)
    }
}
