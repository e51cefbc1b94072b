/// One LC_SEGMENT or LC_SEGMENT_64: a mapped range of the slice and its sections.
package struct MachOSegment: Sendable, Hashable {
    /// The segment's `segname`, such as `__TEXT`, `__DATA`, `__LINKEDIT` or `__DWARF`.
    package var name: String
    package var vmAddress: UInt64
    package var vmSize: UInt64
    /// Relative to the slice.
    package var fileOffset: UInt64
    package var fileSize: UInt64
    package var sections: [MachOSection]
    /// The load command this segment came from.
    package var loadCommand: MachOLoadCommand

    package init(
        name: String,
        vmAddress: UInt64,
        vmSize: UInt64,
        fileOffset: UInt64,
        fileSize: UInt64,
        sections: [MachOSection],
        loadCommand: MachOLoadCommand
    ) {
        self.name = name
        self.vmAddress = vmAddress
        self.vmSize = vmSize
        self.fileOffset = fileOffset
        self.fileSize = fileSize
        self.sections = sections
        self.loadCommand = loadCommand
    }
}
