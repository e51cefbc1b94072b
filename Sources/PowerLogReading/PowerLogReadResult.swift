import APMInspectCore

/// What reading PowerLog files produced: the report and every non-fatal finding.
public struct PowerLogReadResult: Sendable, Equatable {
    public var report: PowerLogReport
    public var diagnostics: [Diagnostic]

    package init(report: PowerLogReport, diagnostics: [Diagnostic]) {
        self.report = report
        self.diagnostics = diagnostics
    }
}
