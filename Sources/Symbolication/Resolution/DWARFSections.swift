/// The DWARF sections of one Mach-O slice, as bytes, handed from the Mach-O reader to the DWARF reader.
///
/// Mach-O spells them `__debug_info` in the `__DWARF` segment; this type uses DWARF's own names so the DWARF reader
/// need not know the container. Absent sections are empty. The bytes are copies bounded by the file they came from,
/// so the DWARF reader may keep them for as long as it lives.
package struct DWARFSections: Sendable, Equatable {
    package var info: [UInt8]
    package var abbrev: [UInt8]
    package var line: [UInt8]
    package var str: [UInt8]
    package var lineStr: [UInt8]
    package var strOffsets: [UInt8]
    package var addr: [UInt8]
    package var ranges: [UInt8]
    package var rnglists: [UInt8]
    package var aranges: [UInt8]
    /// True for a little-endian slice (every architecture Apple ships since PowerPC).
    package var isLittleEndian: Bool
    /// Address size of the slice in bytes (8 for arm64 and x86_64, 4 for armv7), for units that do not state it.
    package var addressSize: Int

    package init(
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
    package var isEmpty: Bool { info.isEmpty }
}
