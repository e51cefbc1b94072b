import APMInspectCore

/// Why a capture could not be read at all.
///
/// Thrown only when nothing useful can be produced; everything else is a `Diagnostic` next to a partial result.
public struct HTTPCaptureError: ModuleError, Sendable, Equatable {
    /// A stable machine-readable reason.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// The input has no bytes.
        public static let empty = Code("empty")
        /// The input is not JSON, XML or a capture container at all.
        public static let syntax = Code("syntax")
        /// The input is well formed but not a HAR, Charles session or packet capture.
        public static let wrongKind = Code("wrong-kind")
        /// The compressed wrapper could not be opened.
        public static let compression = Code("compression")
        /// The input exceeds a configured limit.
        public static let tooLarge = Code("too-large")
    }

    public var code: Code
    public var message: String
    public var location: SourceLocation?

    public init(_ code: Code, _ message: String, at location: SourceLocation? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// Wraps an error from the core readers.
    public init(_ error: InputError) {
        let code: Code =
            switch error.code {
            case .empty: .empty
            case .tooLarge, .tooDeep: .tooLarge
            case .wrongKind: .wrongKind
            default: .syntax
            }
        self.init(code, error.message, at: error.location)
    }
}
