import APMInspectCore

/// The error thrown when a file yields no crash report at all: `InputError`, the one error type the modules share
/// (what went wrong, in words, and where).
///
/// One type across modules, so a caller reading several kinds of file catches one error and tells failures apart by
/// `code`; the name is kept so existing `catch let error as CrashParseError` still compiles.
public typealias CrashParseError = InputError

/// The failures only CrashReportParsing reports; it also throws the shared `unreadableBody` (the body could not be
/// read).
extension InputError.Code {
    /// The file is another kind of report (a panic, a stackshot, a JetsamEvent …).
    public static let notACrashReport = InputError.Code("not-a-crash-report")
}
