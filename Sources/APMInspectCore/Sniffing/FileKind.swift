/// The kinds of report `apm-inspect` tells apart; the `kind` of the JSON output envelope.
public enum FileKind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case jetsamEvent
    case crashReport
    case watchdogTermination
    case powerLog
    case httpArchive
    case charlesSession
    case packetCapture
    case stackshot
    case panic
    case otherIPS
    /// A KSCrash JSON report (or SentryCrash's, Bugsnag's): read into the crash report model.
    case kscrash
    /// MetricKit payloads (`MXDiagnosticPayload`, `MXMetricPayload`) or a bare `MXCallStackTree`.
    case metrickit
    case unknown
}
