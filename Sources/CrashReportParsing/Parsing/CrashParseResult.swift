import APMInspectCore

/// A parsed crash report with the findings made while reading it.
public struct CrashParseResult: Sendable, Equatable {
    /// The report, as complete as the input allowed.
    public var report: CrashReport
    /// What the reader noticed while reading: recovered damage, unknown shapes, limits reached.
    public var diagnostics: [Diagnostic]

    package init(report: CrashReport, diagnostics: [Diagnostic]) {
        self.report = report
        self.diagnostics = diagnostics
    }
}
