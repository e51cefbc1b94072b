import APMInspectCore

/// The bounds of discovery and caching: a folder of a million files, a hostile zip or a 4 GB "dSYM" cost a
/// finding, not the machine.
public struct DSYMStoreLimits: Sendable, Equatable {
    /// Files looked at under the folders given (every file's first bytes are read to recognise it).
    public var maxFiles: Int
    /// The largest Mach-O file read.
    public var maxFileBytes: Int
    /// Entries of one zip archive looked at.
    public var maxZipEntries: Int
    /// How far a zip entry may expand.
    public var zipExpansion: ExpansionLimit
    /// Opened images kept: each holds its DWARF index.
    public var openImages: Int

    /// Limits with the given bounds; the defaults bound memory for any real dSYM folder.
    public init(
        maxFiles: Int = 100_000,
        maxFileBytes: Int = 2 << 30,
        maxZipEntries: Int = 10_000,
        zipExpansion: ExpansionLimit = ExpansionLimit(maxBytes: 2 << 30, maxRatio: 100, floorBytes: 64 << 20),
        openImages: Int = 8
    ) {
        self.maxFiles = maxFiles
        self.maxFileBytes = maxFileBytes
        self.maxZipEntries = maxZipEntries
        self.zipExpansion = zipExpansion
        self.openImages = openImages
    }
}
