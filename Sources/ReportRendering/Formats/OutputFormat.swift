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

/// The formats of `inspect` and `scan`: the envelope formats, and the native event formats of the backends
/// (docs/backends.md).
enum InspectFormat: String, OutputFormatChoice {
    case text
    case json
    case ndjson
    /// One Sentry event per line.
    case sentry
    /// Sentry envelopes, one per event (`-o DIR` for several).
    case sentryEnvelope = "sentry-envelope"
    /// One OTLP/JSON logs document per input file, one per line.
    case otel
    /// `inspect` only: the sampled call-stack trees of MetricKit diagnostics as folded stacks (flame-graph input).
    case folded

    /// The backend format this choice names, nil for the envelope formats.
    var backend: BackendFormat? {
        switch self {
        case .sentry: .sentry
        case .sentryEnvelope: .sentryEnvelope
        case .otel: .otel
        case .text, .json, .ndjson, .folded: nil
        }
    }
}

/// The formats of `scan`: those of `inspect` but `folded` (a scan prints an inventory, not call stacks).
enum ScanFormat: String, OutputFormatChoice {
    case text
    case json
    case ndjson
    case sentry
    case sentryEnvelope = "sentry-envelope"
    case otel

    /// The same choice as an `inspect` format (every raw value is one).
    var inspectFormat: InspectFormat { InspectFormat(rawValue: rawValue) ?? .text }
}

/// A native event format of a backend.
enum BackendFormat: String, Sendable {
    case sentry
    case sentryEnvelope = "sentry-envelope"
    case otel
}
