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
