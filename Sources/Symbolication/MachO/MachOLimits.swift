/// Bounds on what the Mach-O reader accepts, past which a file is refused with `limit-exceeded` rather than read.
///
/// Everything else the reader allocates is bounded by the file itself: a load command takes at least 8 bytes of
/// its area and a symbol 12 or 16 bytes of the symbol table, both inside the file.
package enum MachOLimits {
    /// Largest file read into memory (a dSYM of a very large app is around 2 GB).
    package static let maxFileSize = 4 << 30
    /// Most architectures one fat header may list.
    ///
    /// A fat header listing more is not a fat header: Java class files share its magic and put their version (45 and
    /// up) where the count is. Apple ships at most a handful per file.
    package static let maxFatArchitectures = 30
}

extension MachOLimits {
    /// Longest symbol name returned, in bytes; longer ones are cut.
    ///
    /// Swift's longest generic specializations run to a
    /// few kilobytes.
    package static let maxSymbolNameLength = 1 << 16
}
