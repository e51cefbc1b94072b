import APMInspectCore

/// The error thrown by PowerLogReading when a file yields nothing useful: `InputError`, the one error type the
/// modules share.
///
/// One type across modules, so a caller reading several kinds of file catches one error and tells failures apart by
/// `code`; the name is kept so existing `catch let error as PowerLogError` still compiles. Anything less than a total
/// failure is reported as a `Diagnostic` next to a partial result instead.
public typealias PowerLogError = InputError

/// The failures only PowerLogReading reports; it also throws the shared `unreadable` (the file could not be read,
/// or a temporary copy could not be written).
extension InputError.Code {
    /// The file is not an SQLite database (nor a gzip-compressed one).
    public static let notSQLite = InputError.Code("not-sqlite")
    /// SQLite refused to open or query the database.
    public static let database = InputError.Code("database")
    /// The compressed copy is corrupt or decompresses past the configured limit.
    public static let decompression = InputError.Code("decompression")
    /// An SQLite database, but not a PowerLog one.
    public static let notPowerLog = InputError.Code("not-powerlog")
    /// No input file was given, or a folder held no PowerLog database.
    public static let noInput = InputError.Code("no-input")
}
