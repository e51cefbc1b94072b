import ArgumentParser

/// How a command prints its result.
///
/// Only `memory-limits` takes every format as its option; the other commands take a narrower set
/// (``EnvelopeFormat``, ``DocumentFormat``), so their help and shell completion offer only what they produce.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text
    case json
    case ndjson
    case csv
    case markdown
}

/// An option type that offers some of the output formats.
protocol OutputFormatChoice: RawRepresentable<String>, ExpressibleByArgument, CaseIterable {}

extension OutputFormatChoice {
    /// The format this choice names (every choice's raw value is an ``OutputFormat`` raw value).
    var format: OutputFormat { OutputFormat(rawValue: rawValue) ?? .text }
}
