/// How much of a crash report is modelled, so that memory follows the report's size rather than the file's.
///
/// Real reports hold at most a few hundred threads of up to 512 frames and about a thousand binary images; a file
/// of millions of frame lines is hostile or corrupt, and modelling every line cost about 100 bytes of model per
/// 100 bytes of input before any output was written. The defaults sit far above any real report. What a limit cuts
/// is counted, not modelled, and named in one `Diagnostic` per limit; the report is then marked partial.
public struct CrashParseLimits: Sendable, Equatable {
    /// Frames kept per thread (and for the Last Exception Backtrace); later frame lines are counted.
    public var maxFramesPerThread: Int
    /// Frames kept across all threads and the Last Exception Backtrace.
    public var maxTotalFrames: Int
    /// Threads kept; the frames of later threads are counted.
    public var maxThreads: Int
    /// Binary images kept.
    public var maxBinaryImages: Int
    /// The longest string, in bytes as written, a JSON report copies into the model.
    ///
    /// Names, exception messages and blocks longer than this are cut at a character boundary. Symbols and paths
    /// stay windows on the file's bytes.
    public var maxStringBytes: Int
    /// Entries kept in ``CrashReport/unknownKeys`` (unparsed text lines, unknown header fields, unknown JSON
    /// members); later ones are counted and dropped, the first ones kept.
    ///
    /// Each entry costs its text plus about a hundred bytes of key and bookkeeping: a hostile file of millions of
    /// one-character lines cost fifty times its size in unknown entries alone. Real reports have a handful.
    public var maxUnknownEntries: Int
    /// Bytes of key and value text kept in ``CrashReport/unknownKeys``; entries past it are counted and dropped.
    public var maxUnknownBytes: Int

    /// Limits with the given bounds; the defaults bound memory for hostile input.
    public init(
        maxFramesPerThread: Int = 100_000,
        maxTotalFrames: Int = 1_000_000,
        maxThreads: Int = 10_000,
        maxBinaryImages: Int = 100_000,
        maxStringBytes: Int = 1 << 16,
        maxUnknownEntries: Int = 10_000,
        maxUnknownBytes: Int = 1 << 20
    ) {
        self.maxFramesPerThread = max(0, maxFramesPerThread)
        self.maxTotalFrames = max(0, maxTotalFrames)
        self.maxThreads = max(0, maxThreads)
        self.maxBinaryImages = max(0, maxBinaryImages)
        self.maxStringBytes = max(0, maxStringBytes)
        self.maxUnknownEntries = max(0, maxUnknownEntries)
        self.maxUnknownBytes = max(0, maxUnknownBytes)
    }
}
