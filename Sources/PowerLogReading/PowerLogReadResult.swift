import APMInspectCore

/// What reading PowerLog files produced: the report and every non-fatal finding.
public struct PowerLogReadResult: Sendable, Equatable {
    /// The report, as complete as the database allowed.
    public var report: PowerLogReport
    /// What the reader noticed while reading: recovered damage, unknown shapes, limits reached.
    public var diagnostics: [Diagnostic]

    package init(report: PowerLogReport, diagnostics: [Diagnostic]) {
        self.report = report
        self.diagnostics = diagnostics
    }
}
