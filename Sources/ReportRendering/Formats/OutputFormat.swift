/// How a command prints its result.
///
/// Only `memory-limits` takes every format as its option; the other commands take a narrower set
/// (`InspectFormat`, `ScanFormat` in the executable), so their help and shell completion offer only what they
/// produce. The option parsing is the executable's (`OutputFormat+Argument.swift`): a library does not import
/// ArgumentParser.
package enum OutputFormat: String, CaseIterable, Sendable {
    case text
    case json
    case ndjson
    case csv
    case markdown
}
