import APMInspectCore

/// The error thrown when a file yields no crash report at all: what went wrong, in words, and where.
public struct CrashParseError: ModuleError, Sendable, Equatable {
    /// The kind of failure, stable across releases.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// The file is another kind of report (a panic, a stackshot, a JetsamEvent …).
        public static let notACrashReport = Code("not-a-crash-report")
        /// The body could not be read.
        public static let unreadableBody = Code("unreadable-body")
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
