import APMInspectCore

/// A MetricKit file read: the model, and what was found wrong or left out on the way.
public struct MetricKitReadResult: Sendable {
    public var report: MetricKitReport
    public var diagnostics: [Diagnostic]

    package init(report: MetricKitReport, diagnostics: [Diagnostic]) {
        self.report = report
        self.diagnostics = diagnostics
    }
}
