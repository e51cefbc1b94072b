import APMInspectCore

/// One payload: an `MXDiagnosticPayload` or an `MXMetricPayload` as `jsonRepresentation()` writes it.
public struct MetricKitPayload: Sendable, Equatable, Codable {
    /// Whether the payload carries diagnostics or metrics.
    public enum Kind: String, Sendable, Equatable, Codable {
        case diagnostic
        case metric
    }

    public var kind: Kind
    /// Where the payload is in the file (`[2]`, or empty for a file holding one payload).
    public var keyPath: String
    /// `timeStampBegin` and `timeStampEnd` as written (some carry no time zone).
    public var timeStampBegin: String?
    public var timeStampEnd: String?
    /// The same, read as times when they carry a zone.
    public var begin: AppleTimestamp?
    public var end: AppleTimestamp?
    public var diagnostics: [MetricKitDiagnostic]
    /// Metric payloads: the figures read (see ``MetricKitMetrics``).
    public var metrics: MetricKitMetrics?
    /// Payload keys this reader does not model, verbatim.
    public var unknownKeys: JSONValue?

    package init(kind: Kind, keyPath: String) {
        self.kind = kind
        self.keyPath = keyPath
        self.diagnostics = []
    }
}
