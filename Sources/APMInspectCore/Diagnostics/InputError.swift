/// The one error type every module throws when nothing useful can be produced from an input.
///
/// It says what went wrong (``code``), in words (``message``), and where (``location``). There is one type for all
/// modules rather than a copy per module: the module names it throws under (`CrashParseError`, `PowerLogError`,
/// `HTTPCaptureError`, `JetsamParseError`, `SymbolicationError`) are type aliases of this type, and what tells the
/// failures apart is the ``code``. Anything less than a total failure is a ``Diagnostic`` value next to a partial
/// result instead.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, stable across releases: a string value rather than an enum case, so codes can be added
    /// without breaking callers.
    ///
    /// The codes every module may use live here; a module adds its own in an extension of `InputError.Code` in that
    /// module. A raw value is defined once, so importing several modules never makes a code ambiguous.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The string written in JSON and matched by callers; stable across releases.
        public let rawValue: String

        /// A code from its JSON value (`failure.code`).
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// The text people see, as the command prints it.
        public var description: String { rawValue }

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
        /// The file (or folder, bundle, archive) could not be read from disk, or a temporary copy could not be
        /// written.
        public static let unreadable = Code("unreadable")
        /// The body of a report (after its header) could not be read.
        public static let unreadableBody = Code("unreadable-body")
    }

    /// The stable code to branch on (the JSON `failure.code`); messages may change.
    public var code: Code
    /// One line for people; input bytes in it are escaped.
    public var message: String
    /// Where in the input reading stopped, when that is known.
    public var location: SourceLocation?

    /// An error with its code, message and where in the input it was found.
    public init(_ code: Code, _ message: String, at location: SourceLocation? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// `line:column: message` (the location as written by ``SourceLocation``), or the message alone.
    public var description: String {
        if let location { return "\(location): \(message)" }
        return message
    }
}
