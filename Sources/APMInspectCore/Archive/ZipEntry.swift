/// One member of a zip archive, as its central directory describes it.
package struct ZipEntry: Sendable, Equatable {
    /// The name as stored (UTF-8 by convention; CP437 in old archives), never used as a path on this machine.
    package var rawName: [UInt8]
    /// Position in the central directory.
    package var index: Int
    /// 0 stored, 8 deflate; anything else is not read.
    package var method: UInt16
    package var flags: UInt16
    package var crc32: UInt32
    package var compressedSize: UInt64
    package var uncompressedSize: UInt64
    /// Where the entry's local header starts in the archive.
    package var localHeaderOffset: UInt64

    package init(
        rawName: [UInt8],
        index: Int,
        method: UInt16,
        flags: UInt16,
        crc32: UInt32,
        compressedSize: UInt64,
        uncompressedSize: UInt64,
        localHeaderOffset: UInt64
    ) {
        self.rawName = rawName
        self.index = index
        self.method = method
        self.flags = flags
        self.crc32 = crc32
        self.compressedSize = compressedSize
        self.uncompressedSize = uncompressedSize
        self.localHeaderOffset = localHeaderOffset
    }

    /// The name for display and matching, invalid UTF-8 replaced.
    package var name: String { String(decoding: rawName, as: UTF8.self) }

    /// True for a folder entry (the name ends with `/`).
    package var isDirectory: Bool { rawName.last == 0x2F }

    /// True when the entry is encrypted (flag bit 0): its bytes cannot be read.
    package var isEncrypted: Bool { flags & 1 != 0 }

    /// False for a name that would leave a folder if it were used as a path.
    ///
    /// Absolute, with a `..` component, a backslash or a drive letter, or a NUL. Entries are only ever read into
    /// memory; callers that show or match names use this to say the archive is suspicious.
    package var isSafePath: Bool {
        guard let first = rawName.first, first != 0x2F, first != 0x5C, !rawName.contains(0) else { return false }
        if rawName.contains(0x5C) { return false }
        if rawName.count >= 2, rawName[1] == 0x3A { return false }
        return !rawName.split(separator: 0x2F, omittingEmptySubsequences: false).contains {
            $0.elementsEqual([0x2E, 0x2E])
        }
    }
}
