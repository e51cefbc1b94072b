/// A native event format of a backend.
package enum BackendFormat: String, Sendable {
    case sentry
    case sentryEnvelope = "sentry-envelope"
    case otel
}
