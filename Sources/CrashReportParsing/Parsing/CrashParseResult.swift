import APMInspectCore

/// A parsed crash report with the findings made while reading it.
public struct CrashParseResult: Sendable, Equatable {
    public var report: CrashReport
    public var diagnostics: [Diagnostic]

    package init(report: CrashReport, diagnostics: [Diagnostic]) {
        self.report = report
        self.diagnostics = diagnostics
    }
}
