import APMInspectCore

/// Why a rules file was refused: one diagnostic with its code (`grouping.syntax` …) and where (line and column).
///
/// The rules change every crash group, so a rules file with any error is refused whole rather than applied in part.
package struct GroupingRulesError: Error, Sendable, Equatable, CustomStringConvertible {
    package var diagnostic: Diagnostic

    package init(_ code: Diagnostic.Code, _ message: String, line: Int, column: Int) {
        diagnostic = Diagnostic(.error, code, message, at: SourceLocation(line: line, column: column))
    }

    /// `line:column: message`.
    package var description: String {
        if let location = diagnostic.location { return "\(location): \(diagnostic.message)" }
        return diagnostic.message
    }
}
