import APMInspectCore

/// One payload: an `MXDiagnosticPayload` or an `MXMetricPayload` as `jsonRepresentation()` writes it.
package struct MetricKitPayload: Sendable, Equatable, Codable {
    /// Whether the payload carries diagnostics or metrics.
    package enum Kind: String, Sendable, Equatable, Codable {
        case diagnostic
        case metric
    }

    package var kind: Kind
    /// Where the payload is in the file (`[2]`, or empty for a file holding one payload).
    package var keyPath: String
    /// `timeStampBegin` and `timeStampEnd` as written (some carry no time zone).
    package var timeStampBegin: String?
    package var timeStampEnd: String?
    /// The same, read as times when they carry a zone.
    package var begin: AppleTimestamp?
    package var end: AppleTimestamp?
    package var diagnostics: [MetricKitDiagnostic]
    /// Metric payloads: the figures read (see ``MetricKitMetrics``).
    package var metrics: MetricKitMetrics?
    /// Payload keys this reader does not model, verbatim.
    package var unknownKeys: JSONValue?

    package init(kind: Kind, keyPath: String) {
        self.kind = kind
        self.keyPath = keyPath
        self.diagnostics = []
    }
}
