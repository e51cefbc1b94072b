extension Diagnostic {
    /// What a diagnostic is about, stable across releases and wording changes: callers and tests branch on it,
    /// never on the message.
    ///
    /// Dot-separated words in kebab case, the first naming the area (`archive.member-too-large`,
    /// `har.bad-timing`). A value rather than an enum case, so modules add codes without breaking callers: each
    /// module declares its own as `static let` in a `Diagnostic+<Area>Codes.swift` file, with a doc comment that
    /// says what it means and an `Example:` line; docs/diagnostics.md is generated from those files.
    public struct Code: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
        /// The string written in JSON and matched by callers; stable across releases.
        public let rawValue: String

        /// A code from its JSON value (`diagnostics[].code`).
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Reads the JSON form back, as `encode(to:)` writes it.
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }

        /// Writes the JSON form documented in docs/json-output.md.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// The text people see, as the command prints it.
        public var description: String { rawValue }

        /// A stable order, so sorted output does not depend on the order reports were read in.
        public static func < (lhs: Code, rhs: Code) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The code of a diagnostic that reports an ``InputError`` as a non-fatal finding (a member of an
        /// archive, one report of many): `input.` followed by the error's code, such as `input.syntax`.
        public static func input(_ code: InputError.Code) -> Code { Code("input." + code.rawValue) }

        /// True when the code is one or more dot-separated words of lower-case letters, digits and hyphens.
        package var isWellFormed: Bool {
            let words = rawValue.split(separator: ".", omittingEmptySubsequences: false)
            return words.count >= 2
                && words.allSatisfy { word in
                    guard let first = word.utf8.first, let last = word.utf8.last, first != 0x2D, last != 0x2D else {
                        return false
                    }
                    return word.utf8.allSatisfy {
                        (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D
                    }
                }
        }
    }
}

extension Diagnostic {
    /// A diagnostic of `code`; the message is for people and may change between releases, the code does not.
    package init(_ severity: Severity, _ code: Code, _ message: String, at location: SourceLocation? = nil) {
        self.init(severity: severity, code: code, message: message, location: location)
    }

    /// The same finding about an ``InputError``: its code under `input.`, its message and location.
    public static func input(_ severity: Severity, _ error: InputError) -> Diagnostic {
        Diagnostic(severity, .input(error.code), error.message, at: error.location)
    }
}
