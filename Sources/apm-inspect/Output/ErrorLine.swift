import APMInspectCore

/// Formats errors the way compilers do, so editors and CI can jump to them: `path:line:col: error: message`.
enum ErrorLine {
    static func render(path: String, location: SourceLocation?, message: String, severity: String = "error") -> String {
        var prefix = path
        if let location, let line = location.line {
            prefix += ":\(line)"
            if let column = location.column { prefix += ":\(column)" }
        }
        var text = "\(prefix): \(severity): \(message)"
        if let keyPath = location?.keyPath { text += " (at \(keyPath))" }
        return text
    }
}
