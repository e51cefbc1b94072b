/// The error thrown by APMInspectCore when nothing useful can be produced from an input.
///
/// It says what went wrong (``code``), in words (``message``), and where (``location``). Codes are open-ended
/// values rather than enum cases so new ones can be added without breaking callers.
public struct InputError: ModuleError, Sendable, Equatable {
    /// The kind of failure, stable across releases.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// The input is empty or holds only whitespace.
        public static let empty = Code("empty")
        /// The input is larger than the configured limit.
        public static let tooLarge = Code("too-large")
        /// The input nests deeper than the configured limit.
        public static let tooDeep = Code("too-deep")
        /// The input is not in the expected syntax at all.
        public static let syntax = Code("syntax")
        /// The input is readable but is not the kind of document the parser reads.
        public static let wrongKind = Code("wrong-kind")
        /// The file could not be read from disk.
        public static let unreadable = Code("unreadable")
    }

    public var code: Code
    public var message: String
    public var location: SourceLocation?

    public init(_ code: Code, _ message: String, at location: SourceLocation? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }
}
