import APMInspectCore
import ReportRendering

extension Console {
    /// Warnings and errors about `path` on standard error, one `path:line:col: severity: message` line each; notes
    /// only count, so the output of a file read with notes stays quiet.
    static func error(_ diagnostics: [Diagnostic], about path: String) {
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
