import APMInspectCore

extension OutputSink {
    /// Warnings and errors about `path` for standard error, one `path:line:col: severity: message` line each; notes
    /// only count, so the output of a file read with notes stays quiet.
    package func error(_ diagnostics: [Diagnostic], about path: String) {
        for diagnostic in diagnostics where diagnostic.severity != .note {
            error(
                ErrorLine.render(
                    path: path,
                    location: diagnostic.location,
                    message: diagnostic.message,
                    severity: diagnostic.severity.rawValue
                )
            )
        }
    }
}
