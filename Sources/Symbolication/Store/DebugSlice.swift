/// What a Mach-O header says about one slice, enough to index it without reading its DWARF.
public struct DebugSlice: Sendable, Hashable {
    /// 32 lower-case hex digits, no dashes (as the crash model spells image UUIDs).
    public var uuid: String
    /// `arm64`, `arm64e`, `x86_64` …, as reports name architectures.
    public var arch: String
    /// The `__TEXT` segment's address: with an image's load address, what turns frame addresses into DWARF ones.
    public var textVMAddress: UInt64
    /// Where the slice starts in its file (0 for a thin file).
    public var fileOffset: Int
    /// The slice's size in its file.
    public var size: Int

    package init(uuid: String, arch: String, textVMAddress: UInt64, fileOffset: Int = 0, size: Int) {
        self.uuid = uuid
        self.arch = arch
        self.textVMAddress = textVMAddress
        self.fileOffset = fileOffset
        self.size = size
    }

    /// 32-bit ARM code, where Thumb return addresses are odd (``MachOArchitecture/isARM32``).
    package var isARM32: Bool { MachOArchitecture(name: arch)?.isARM32 ?? arch.hasPrefix("armv") }
}
