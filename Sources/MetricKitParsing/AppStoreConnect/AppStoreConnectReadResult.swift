import APMInspectCore

/// An App Store Connect response read: the model, and what was found wrong or left out on the way.
package struct AppStoreConnectReadResult: Sendable {
    package var report: AppStoreConnectReport
    package var diagnostics: [Diagnostic]

    package init(report: AppStoreConnectReport, diagnostics: [Diagnostic]) {
        self.report = report
        self.diagnostics = diagnostics
    }
}
