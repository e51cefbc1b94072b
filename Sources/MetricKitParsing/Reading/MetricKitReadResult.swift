import APMInspectCore

/// A MetricKit file read: the model, and what was found wrong or left out on the way.
public struct MetricKitReadResult: Sendable {
    /// The payloads, as complete as the input allowed.
    public var report: MetricKitReport
    /// What the reader noticed while reading: recovered damage, unknown shapes, limits reached.
    public var diagnostics: [Diagnostic]

    package init(report: MetricKitReport, diagnostics: [Diagnostic]) {
        self.report = report
        self.diagnostics = diagnostics
    }
}

extension MetricKitReadResult {
    /// The end of a read, legacy payloads or iOS 27 reports alike: the report's counts made, then the JSON
    /// reader's diagnostics, a warning when the file ended inside the JSON, and the reader's own findings.
    init(finishing report: MetricKitReport, document: JSONDocument, findings: MetricKitFindings) {
        var report = report
        report.recount()
        var diagnostics = document.diagnostics
        if document.isTruncated {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .metricKitTruncatedJSON,
                    "the file ends inside the JSON: what comes before was read"
                )
            )
        }
        diagnostics += findings.all
        self.init(report: report, diagnostics: diagnostics)
    }
}
