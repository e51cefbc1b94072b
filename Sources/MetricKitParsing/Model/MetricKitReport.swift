/// What a MetricKit file holds: one payload or an array of them, diagnostic or metric.
public struct MetricKitReport: Sendable, Equatable, Codable {
    package var payloads: [MetricKitPayload]
    /// Diagnostics by kind over every payload (`crash`: 2, `hang`: 1 …); kinds absent from the file are absent.
    package var diagnosticCounts: [String: Int]
    /// Number of metric payloads.
    package var metricPayloads: Int
    /// True when the file is a JSON array of payloads.
    package var isArray: Bool

    /// A report of the given payloads; `isArray` says whether the file held a JSON array of them.
    package init(payloads: [MetricKitPayload] = [], isArray: Bool = false) {
        self.payloads = payloads
        self.isArray = isArray
        self.diagnosticCounts = [:]
        self.metricPayloads = 0
        recount()
    }

    /// Recomputes the counts from ``payloads``.
    package mutating func recount() {
        var counts: [String: Int] = [:]
        var metrics = 0
        for payload in payloads {
            if payload.kind == .metric { metrics += 1 }
            for diagnostic in payload.diagnostics { counts[diagnostic.kind.rawValue, default: 0] += 1 }
        }
        diagnosticCounts = counts
        metricPayloads = metrics
    }

    /// Every diagnostic, in file order.
    package var diagnostics: [MetricKitDiagnostic] { payloads.flatMap(\.diagnostics) }
}
