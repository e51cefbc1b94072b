/// One load command of a slice, kept whether or not this reader understands it, so nothing in the file is lost.
package struct MachOLoadCommand: Sendable, Hashable {
    /// `cmd` as stored (LC_REQ_DYLD bit included).
    package var command: UInt32
    /// Position among the slice's load commands, 0-based: the index in key paths such as `LC_SEGMENT_64[3]`.
    package var index: Int
    /// Offset of the command in the file (not the slice), for error locations.
    package var fileOffset: Int
    /// `cmdsize`.
    package var size: Int

    package init(command: UInt32, index: Int, fileOffset: Int, size: Int) {
        self.command = command
        self.index = index
        self.fileOffset = fileOffset
        self.size = size
    }

    static let segment: UInt32 = 0x1
    static let symtab: UInt32 = 0x2
    static let segment64: UInt32 = 0x19
    static let uuid: UInt32 = 0x1B

    /// `LC_SEGMENT_64`, `LC_UUID` … as `otool -l` names them, or the number in hex.
    package var name: String {
        switch command {
        case 0x1: "LC_SEGMENT"
        case 0x2: "LC_SYMTAB"
        case 0xB: "LC_DYSYMTAB"
        case 0xC: "LC_LOAD_DYLIB"
        case 0xD: "LC_ID_DYLIB"
        case 0xE: "LC_LOAD_DYLINKER"
        case 0x19: "LC_SEGMENT_64"
        case 0x1B: "LC_UUID"
        case 0x1D: "LC_CODE_SIGNATURE"
        case 0x1E: "LC_SEGMENT_SPLIT_INFO"
        case 0x22, 0x8000_0022: "LC_DYLD_INFO"
        case 0x24: "LC_VERSION_MIN_MACOSX"
        case 0x25: "LC_VERSION_MIN_IPHONEOS"
        case 0x26: "LC_FUNCTION_STARTS"
        case 0x29: "LC_DATA_IN_CODE"
        case 0x2A: "LC_SOURCE_VERSION"
        case 0x8000_0028: "LC_MAIN"
        case 0x32: "LC_BUILD_VERSION"
        case 0x8000_0033: "LC_DYLD_EXPORTS_TRIE"
        case 0x8000_0034: "LC_DYLD_CHAINED_FIXUPS"
        default: "LC_0x" + String(command, radix: 16, uppercase: true)
        }
    }

    /// The key path of this command in error locations: `LC_SEGMENT_64[3]`.
    package var keyPath: String { "\(name)[\(index)]" }
}
