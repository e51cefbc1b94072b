/// One member of a tar archive.
package struct TarEntry: Sendable, Equatable {
    /// What kind of member it is.
    package enum Kind: Sendable, Equatable {
        case file
        case directory
        case symbolicLink(target: String)
        case hardLink(target: String)
        case other(UInt8)
    }

    /// The member's path inside the archive, normalised (no `./`, no empty components).
    package var path: String
    package var kind: Kind
    /// The size the header declares.
    package var size: UInt64
    /// The bytes of a regular file (empty for other kinds, and for files skipped for their size).
    package var data: [UInt8]
    /// True when the file was larger than the per-entry limit and its bytes were skipped.
    package var skippedForSize: Bool

    package init(path: String, kind: Kind, size: UInt64, data: [UInt8], skippedForSize: Bool = false) {
        self.path = path
        self.kind = kind
        self.size = size
        self.data = data
        self.skippedForSize = skippedForSize
    }
}
