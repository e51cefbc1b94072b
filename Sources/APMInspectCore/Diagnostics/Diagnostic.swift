/// A non-fatal finding about an input: something skipped, repaired, guessed or unknown.
///
/// Parsers return diagnostics next to their (possibly partial) result instead of throwing, so a caller always
/// gets what could be read and is told what could not.
public struct Diagnostic: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// How much a finding matters to someone relying on the result.
    public enum Severity: String, Sendable, Equatable, Hashable, Codable, Comparable {
        /// Informational: the input is unusual but nothing was lost.
        case note
        /// Something was skipped, repaired or guessed; figures derived from it may be incomplete.
        case warning
        /// A part of the input could not be read at all.
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    public var severity: Severity
    public var message: String
    public var location: SourceLocation?

    public init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    public var description: String {
        if let location {
            return "\(location): \(severity.rawValue): \(message)"
        }
        return "\(severity.rawValue): \(message)"
    }
}
