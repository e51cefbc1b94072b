import APMInspectCore

/// Why a capture could not be read at all: `InputError`, the one error type the modules share.
///
/// One type across modules, so a caller reading several kinds of file catches one error and tells failures apart by
/// `code`; the name is kept so existing `catch let error as HTTPCaptureError` still compiles. Thrown only when
/// nothing useful can be produced; everything else is a `Diagnostic` next to a partial result. The HTTP readers
/// report `empty`, `syntax`, `wrong-kind`, `too-large` and their own `compression`.
public typealias HTTPCaptureError = InputError

/// The failure only HTTPCaptureParsing reports.
extension InputError.Code {
    /// The compressed wrapper could not be opened.
    public static let compression = InputError.Code("compression")
}

extension InputError {
    /// This error (from a core reader) in the codes the HTTP readers report.
    ///
    /// `empty`, `wrong-kind` and `compression` stay, too large and too deep are both `too-large` (a limit was
    /// passed), anything else is `syntax`. The message and location are kept.
    public func inHTTPCaptureCodes() -> InputError {
        let mapped: Code =
            switch code {
            case .empty: .empty
            case .tooLarge, .tooDeep: .tooLarge
            case .wrongKind: .wrongKind
            case .compression: .compression
            default: .syntax
            }
        return InputError(mapped, message, at: location)
    }

    /// Wraps an error from the core readers in the codes the HTTP readers report (see `inHTTPCaptureCodes()`).
    @available(*, deprecated, message: "HTTPCaptureError is InputError now: use error.inHTTPCaptureCodes()")
    public init(_ error: InputError) {
        self = error.inHTTPCaptureCodes()
    }
}
