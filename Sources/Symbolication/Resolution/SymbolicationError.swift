import APMInspectCore

/// The error thrown when a binary or its debug information cannot be read at all: what, in words, and where (a
/// byte offset into the file, and the section or load command as the key path).
///
/// A damaged dSYM never costs the report: callers print the report unsymbolicated with this error as a diagnostic.
public struct SymbolicationError: ModuleError, Sendable, Equatable {
    /// The kind of failure, stable across releases.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Not a Mach-O file (thin or fat) at all.
        public static let notMachO = Code("not-mach-o")
        /// A Mach-O header, load command, section or table points outside the file or contradicts itself.
        public static let malformedMachO = Code("malformed-mach-o")
        /// DWARF data that cannot be read (bad version, offsets outside their section, abbreviation missing …).
        public static let malformedDWARF = Code("malformed-dwarf")
        /// A count, size or depth past the reader's limit.
        public static let limitExceeded = Code("limit-exceeded")
        /// A dSYM bundle, folder or zip that cannot be opened.
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
