import APMInspectCore

/// The error thrown by PowerLogReading when a file yields nothing useful.
///
/// Codes are open-ended values rather than enum cases so new ones can be added without breaking callers. Anything
/// less than a total failure is reported as a `Diagnostic` next to a partial result instead.
public struct PowerLogError: ModuleError, Sendable, Equatable {
    /// The kind of failure, stable across releases.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// The file could not be read, or a temporary copy could not be written.
        public static let unreadable = Code("unreadable")
        /// The file is not an SQLite database (nor a gzip-compressed one).
        public static let notSQLite = Code("not-sqlite")
        /// SQLite refused to open or query the database.
        public static let database = Code("database")
        /// The compressed copy is corrupt or decompresses past the configured limit.
        public static let decompression = Code("decompression")
        /// An SQLite database, but not a PowerLog one.
        public static let notPowerLog = Code("not-powerlog")
        /// No input file was given, or a folder held no PowerLog database.
        public static let noInput = Code("no-input")
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
