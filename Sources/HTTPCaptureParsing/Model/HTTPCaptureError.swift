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
