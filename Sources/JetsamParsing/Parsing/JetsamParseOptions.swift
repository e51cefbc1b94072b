import APMInspectCore

/// Limits for reading JetsamEvent reports; the defaults are safe for hostile input.
public struct JetsamParseOptions: Sendable, Equatable {
    /// Limits of the JSON reader (depth, size) and whether pasted, non-strict JSON is accepted.
    public var json: JSONParseOptions
    /// Most process entries read from one report; the rest are counted and reported in a diagnostic.
    public var maxProcesses: Int

    public init(json: JSONParseOptions = JSONParseOptions(), maxProcesses: Int = 100_000) {
        self.json = json
        self.maxProcesses = maxProcesses
    }
}
