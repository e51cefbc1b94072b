import FleetReport
import JetsamParsing

/// `memory-limits --format json --schema-version 2`: the rows, what was read, and the inputs' findings with their
/// codes, in one object.
///
/// Version 1, an array of rows, had nowhere to carry why a file was not counted (unreadable, a member over a limit,
/// a truncated archive): those went to standard error only. Version 2 keeps the rows unchanged under `limits`.
package struct MemoryLimitsDocument: Encodable {
    package static let schemaVersion = 2

    /// What was read: the counts the summary line on standard error gives.
    struct Inputs: Encodable {
        var files: Int
        var jetsamEvents: Int
        var partial: Int
        var otherFiles: Int
        var failures: Int
        var duplicates: Int
        /// Reports set aside by reason (`beta`, `modified-kernel`, `not-iOS`) unless `--include-all`.
        var excluded: [String: Int]
    }

    var limits: [MemoryLimitRow]
    var inputs: Inputs
    /// The failures and archives' findings, each with the file it is about and its code (docs/diagnostics.md).
    var diagnostics: [FleetFinding]

    package init(limits: [MemoryLimitRow], summary: MemoryLimitsRenderer.Summary, diagnostics: [FleetFinding]) {
        self.limits = limits
        inputs = Inputs(
            files: summary.files,
            jetsamEvents: summary.jetsamEvents,
            partial: summary.partial,
            otherFiles: summary.otherFiles,
            failures: summary.failures,
            duplicates: summary.duplicates,
            excluded: summary.excluded
        )
        self.diagnostics = diagnostics
    }

    private enum Keys: String, CodingKey {
        case schemaVersion, limits, inputs, diagnostics
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Self.schemaVersion, forKey: .schemaVersion)
        try container.encode(limits, forKey: .limits)
        try container.encode(inputs, forKey: .inputs)
        try container.encode(diagnostics, forKey: .diagnostics)
    }
}
