/// The DWARF sections of one Mach-O slice, as bytes, handed from the Mach-O reader to the DWARF reader.
///
/// Mach-O spells them `__debug_info` in the `__DWARF` segment; this type uses DWARF's own names so the DWARF reader
/// need not know the container. Absent sections are empty. The bytes are copies bounded by the file they came from,
/// so the DWARF reader may keep them for as long as it lives.
public struct DWARFSections: Sendable, Equatable {
    public var info: [UInt8]
    public var abbrev: [UInt8]
    public var line: [UInt8]
    public var str: [UInt8]
    public var lineStr: [UInt8]
    public var strOffsets: [UInt8]
    public var addr: [UInt8]
    public var ranges: [UInt8]
    public var rnglists: [UInt8]
    public var aranges: [UInt8]
    /// True for a little-endian slice (every architecture Apple ships since PowerPC).
    public var isLittleEndian: Bool
    /// Address size of the slice in bytes (8 for arm64 and x86_64, 4 for armv7), for units that do not state it.
    public var addressSize: Int

    public init(
        info: [UInt8] = [],
        abbrev: [UInt8] = [],
        line: [UInt8] = [],
        str: [UInt8] = [],
        lineStr: [UInt8] = [],
        strOffsets: [UInt8] = [],
        addr: [UInt8] = [],
        ranges: [UInt8] = [],
        rnglists: [UInt8] = [],
        aranges: [UInt8] = [],
        isLittleEndian: Bool = true,
        addressSize: Int = 8
    ) {
        self.info = info
        self.abbrev = abbrev
        self.line = line
        self.str = str
        self.lineStr = lineStr
        self.strOffsets = strOffsets
        self.addr = addr
        self.ranges = ranges
        self.rnglists = rnglists
        self.aranges = aranges
        self.isLittleEndian = isLittleEndian
        self.addressSize = addressSize
    }

    /// True when there is no debug information to read (a stripped binary or a dSYM of another slice).
    public var isEmpty: Bool { info.isEmpty }
}
