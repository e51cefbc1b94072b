/// One section of a segment: where its bytes are in the file and where it is mapped.
package struct MachOSection: Sendable, Hashable {
    /// The section's `sectname`, such as `__text`, `__debug_info` or `__debug_str_offs` (16 bytes of a name kept).
    package var name: String
    /// `segname` as the section states it (in object files every section sits in one unnamed segment and only
    /// this field says `__DWARF`).
    package var segmentName: String
    /// Virtual address in the slice's file address space.
    package var address: UInt64
    /// Size in bytes.
    package var size: UInt64
    /// `offset`: where the bytes start, relative to the slice (0 for zero-fill sections).
    package var offset: UInt32
    /// `flags`: the section type in the low byte and attributes above.
    package var flags: UInt32
    /// Key path of the section in error locations: `LC_SEGMENT_64[1].__debug_info`.
    package var keyPath: String

    package init(
        name: String,
        segmentName: String,
        address: UInt64,
        size: UInt64,
        offset: UInt32,
        flags: UInt32,
        keyPath: String
    ) {
        self.name = name
        self.segmentName = segmentName
        self.address = address
        self.size = size
        self.offset = offset
        self.flags = flags
        self.keyPath = keyPath
    }

    /// True for sections that occupy no file bytes (`S_ZEROFILL`, `S_GB_ZEROFILL`, `S_THREAD_LOCAL_ZEROFILL`).
    package var isZeroFill: Bool {
        let type = flags & 0xFF
        return type == 0x1 || type == 0xC || type == 0x12
    }

    /// True when `address` lies inside the section's mapped range.
    package func contains(_ address: UInt64) -> Bool {
        address >= self.address && address - self.address < size
    }
}
