/// One LC_SEGMENT or LC_SEGMENT_64: a mapped range of the slice and its sections.
public struct MachOSegment: Sendable, Hashable {
    /// The segment's `segname`, such as `__TEXT`, `__DATA`, `__LINKEDIT` or `__DWARF`.
    public var name: String
    public var vmAddress: UInt64
    public var vmSize: UInt64
    /// Relative to the slice.
    public var fileOffset: UInt64
    public var fileSize: UInt64
    public var sections: [MachOSection]
    /// The load command this segment came from.
    public var loadCommand: MachOLoadCommand

    public init(
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
