import ReportRendering

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
