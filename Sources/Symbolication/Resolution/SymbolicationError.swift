import APMInspectCore

/// The error thrown when a binary or its debug information cannot be read at all: `InputError`, the one error type
/// the modules share (what, in words, and where: a byte offset into the file, and the section or load command as the
/// key path).
///
/// One type across modules, so a caller reading several kinds of file catches one error and tells failures apart by
/// `code`; the name is kept so existing `catch let error as SymbolicationError` still compiles. A damaged dSYM never
/// costs the report: callers print the report unsymbolicated with this error as a diagnostic.
public typealias SymbolicationError = InputError

/// The failures only Symbolication reports; it also throws the shared `unreadable` (a dSYM bundle, folder or zip
/// that cannot be opened).
extension InputError.Code {
    /// Not a Mach-O file (thin or fat) at all.
    public static let notMachO = InputError.Code("not-mach-o")
    /// A Mach-O header, load command, section or table points outside the file or contradicts itself.
    public static let malformedMachO = InputError.Code("malformed-mach-o")
    /// DWARF data that cannot be read (bad version, offsets outside their section, abbreviation missing …).
    public static let malformedDWARF = InputError.Code("malformed-dwarf")
    /// A count, size or depth past the reader's limit.
    public static let limitExceeded = InputError.Code("limit-exceeded")
}
