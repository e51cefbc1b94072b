/// The first word of a Mach-O file: a thin header's magic in either byte order, or a fat header's.
///
/// `ContentSniffer` has no Mach-O format on purpose: `inspect` does not read Mach-O, and a format of its own would
/// change what `inspect` and `scan` print for such files. The fuzzer still has to tell them apart, to map their
/// load commands and to send them to the symbolication readers, so the recognition lives here.
package enum MachOMagic: Sendable, Equatable {
    /// `MH_MAGIC` or `MH_MAGIC_64`; `bigEndian` for a header stored big-endian (`0xfeedface` as its first bytes).
    case thin(is64Bit: Bool, bigEndian: Bool)
    /// `FAT_MAGIC` or `FAT_MAGIC_64` (always big-endian) and the `nfat_arch` that follows it (0 when cut off).
    case fat(is64Bit: Bool, architectures: UInt32)

    /// Most architectures a fat header may list and still count as one, as the Mach-O reader's own limit.
    ///
    /// Java class files share `0xcafebabe` and put their major version (45 and up) where the count is, so the
    /// bound must stay below 45.
    package static let maxFatArchitectures: UInt32 = 30

    /// The magic at `offset` of `bytes`, nil when there is none (or fewer than 4 bytes).
    package init?(_ bytes: [UInt8], at offset: Int = 0) {
        guard let word = ByteFields.read(bytes, at: offset, width: 4, bigEndian: true) else { return nil }
        switch word {
        case 0xFEED_FACE: self = .thin(is64Bit: false, bigEndian: true)
        case 0xFEED_FACF: self = .thin(is64Bit: true, bigEndian: true)
        case 0xCEFA_EDFE: self = .thin(is64Bit: false, bigEndian: false)
        case 0xCFFA_EDFE: self = .thin(is64Bit: true, bigEndian: false)
        case 0xCAFE_BABE, 0xCAFE_BABF:
            let count = ByteFields.read(bytes, at: offset + 4, width: 4, bigEndian: true) ?? 0
            self = .fat(is64Bit: word == 0xCAFE_BABF, architectures: UInt32(truncatingIfNeeded: count))
        default: return nil
        }
    }

    /// True for a thin magic, and for a fat one listing 1 to ``maxFatArchitectures`` slices: what makes a corpus
    /// file a Mach-O (a damaged count still sends a mutated input to the reader, which must refuse it).
    package var isPlausible: Bool {
        switch self {
        case .thin: true
        case .fat(_, let count): count >= 1 && count <= Self.maxFatArchitectures
        }
    }
}
