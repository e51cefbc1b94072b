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

        /// A stable order, so sorted output does not depend on the order reports were read in.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// How much the diagnostic matters: whether the output can still be trusted.
    public var severity: Severity
    /// What the finding is about; see docs/diagnostics.md for every code.
    public var code: Code
    /// One line for people; input bytes in it are escaped.
    public var message: String
    /// Where in the input it was noticed, when that is known.
    public var location: SourceLocation?

    init(severity: Severity, code: Code, message: String, location: SourceLocation?) {
        self.severity = severity
        self.code = code
        self.message = message
        self.location = location
    }

    /// The text people see, as the command prints it.
    public var description: String {
        if let location {
            return "\(location): \(severity.rawValue): \(message)"
        }
        return "\(severity.rawValue): \(message)"
    }

    private enum CodingKeys: String, CodingKey { case severity, code, message, location }

    /// Reads JSON written before diagnostics had codes too: their code is `diagnostic.uncoded`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        severity = try container.decode(Severity.self, forKey: .severity)
        code = try container.decodeIfPresent(Code.self, forKey: .code) ?? .uncoded
        message = try container.decode(String.self, forKey: .message)
        location = try container.decodeIfPresent(SourceLocation.self, forKey: .location)
    }
}

extension Diagnostic {
    /// The finding as a list of an input's findings shows it, `PATH: severity: message`: the scan inventory and the
    /// fleet report, whether the input was read or its `archive` envelope read back from NDJSON.
    package func findingLine(about path: String) -> String {
        "\(path): \(severity.rawValue): \(message)"
    }
}
