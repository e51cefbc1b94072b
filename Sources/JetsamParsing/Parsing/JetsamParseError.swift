import APMInspectCore

/// The error thrown when a file yields no JetsamEvent at all: what went wrong, in words, and where.
public struct JetsamParseError: ModuleError, Sendable, Equatable {
    /// The kind of failure, stable across releases.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// The file is another kind of report (its `bug_type` or content says so).
        public static let notJetsam = Code("not-jetsam")
        /// The body holds no JSON that could be read.
        public static let unreadableBody = Code("unreadable-body")
        /// The body is JSON but has nothing of a JetsamEvent in it.
        public static let noJetsamContent = Code("no-jetsam-content")
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
