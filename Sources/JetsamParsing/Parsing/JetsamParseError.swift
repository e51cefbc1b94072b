import APMInspectCore

/// The error thrown when a file yields no JetsamEvent at all: `InputError`, the one error type the modules share
/// (what went wrong, in words, and where).
///
/// One type across modules, so a caller reading several kinds of file catches one error and tells failures apart by
/// `code`; the name is kept so existing `catch let error as JetsamParseError` still compiles.
public typealias JetsamParseError = InputError

/// The failures only JetsamParsing reports; it also throws the shared `unreadableBody` (the body holds no JSON that
/// could be read).
extension InputError.Code {
    /// The file is another kind of report (its `bug_type` or content says so).
    public static let notJetsam = InputError.Code("not-jetsam")
    /// The body is JSON but has nothing of a JetsamEvent in it.
    public static let noJetsamContent = InputError.Code("no-jetsam-content")
}
