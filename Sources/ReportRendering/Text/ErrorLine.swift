import APMInspectCore

/// Formats errors the way compilers do, so editors and CI can jump to them: `path:line:col: error: message`.
package enum ErrorLine {
    /// The line for `path`, its path and message escaped (``TerminalText``).
    ///
    /// A file name or a message quoting the file cannot break the line in two or forge a location. A location without
    /// a line is left out, never shown as `1:1`.
    package static func render(path: String, location: SourceLocation?, message: String, severity: String = "error")
        -> String
    {
        var prefix = TerminalText.escaped(path)
        if let location, let line = location.line {
            prefix += ":\(line)"
            if let column = location.column { prefix += ":\(column)" }
        }
        var text = "\(prefix): \(severity): \(TerminalText.escaped(message))"
        if let keyPath = location?.keyPath { text += " (at \(TerminalText.escaped(keyPath)))" }
        return text
    }
}
