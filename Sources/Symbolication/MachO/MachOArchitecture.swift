/// A Mach-O CPU type and subtype, and the name Apple's tools give them (`arm64`, `arm64e`, `x86_64`, `armv7s` …).
///
/// Crash reports name a binary image's architecture by that name, and images are matched to dSYM slices by UUID
/// and architecture, so the name must be the one Apple prints.
package struct MachOArchitecture: Sendable, Hashable, CustomStringConvertible {
    /// `cputype` as the header stores it (the 64-bit ABI flag 0x01000000 included).
    package var cpuType: Int32
    /// `cpusubtype` as the header stores it; the top byte holds capability bits (pointer authentication ABI
    /// version on arm64e) that do not change the architecture.
    package var cpuSubtype: Int32

    package init(cpuType: Int32, cpuSubtype: Int32) {
        self.cpuType = cpuType
        self.cpuSubtype = cpuSubtype
    }

    static let abi64: Int32 = 0x0100_0000
    static let abi64With32BitPointers: Int32 = 0x0200_0000
    static let typeX86: Int32 = 7
    static let typeARM: Int32 = 12
    static let typePowerPC: Int32 = 18

    package static let arm64 = MachOArchitecture(cpuType: typeARM | abi64, cpuSubtype: 0)
    package static let arm64e = MachOArchitecture(cpuType: typeARM | abi64, cpuSubtype: 2)
    // Named as Apple's tools name the architecture.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    package static let x86_64 = MachOArchitecture(cpuType: typeX86 | abi64, cpuSubtype: 3)
    // Named as Apple's tools name the architecture.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    package static let x86_64h = MachOArchitecture(cpuType: typeX86 | abi64, cpuSubtype: 8)
    package static let i386 = MachOArchitecture(cpuType: typeX86, cpuSubtype: 3)
    package static let armv7 = MachOArchitecture(cpuType: typeARM, cpuSubtype: 9)
    package static let armv7s = MachOArchitecture(cpuType: typeARM, cpuSubtype: 11)
    package static let armv7k = MachOArchitecture(cpuType: typeARM, cpuSubtype: 12)
    // Named as Apple's tools name the architecture.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    package static let arm64_32 = MachOArchitecture(cpuType: typeARM | abi64With32BitPointers, cpuSubtype: 1)

    /// Every architecture with a name, for parsing `-arch` arguments and report fields.
    package static let named: [MachOArchitecture] = [
        arm64, arm64e, x86_64, x86_64h, i386, armv7, armv7s, armv7k, arm64_32,
        MachOArchitecture(cpuType: typeARM, cpuSubtype: 6),
        MachOArchitecture(cpuType: typeARM, cpuSubtype: 0),
        MachOArchitecture(cpuType: typePowerPC, cpuSubtype: 0),
        MachOArchitecture(cpuType: typePowerPC | abi64, cpuSubtype: 0),
    ]

    /// The subtype without its capability bits.
    package var baseSubtype: Int32 { cpuSubtype & 0x00FF_FFFF }

    /// True when addresses and the Mach-O header are 64-bit (arm64_32 has 32-bit pointers).
    package var is64Bit: Bool { cpuType & Self.abi64 != 0 }

    /// 32-bit ARM (armv6, armv7, armv7s, armv7k …), whose code may be Thumb.
    ///
    /// Thumb return addresses carry the Thumb bit (bit 0) and calls are 2 or 4 bytes long. arm64_32 is not 32-bit
    /// ARM in this sense: it runs A64 code only.
    package var isARM32: Bool { cpuType == Self.typeARM }

    /// The name Apple's tools print, or `cputype N subtype M` for one they have no name for.
    package var name: String {
        switch (cpuType, baseSubtype) {
        case (Self.typeARM | Self.abi64, 2): "arm64e"
        case (Self.typeARM | Self.abi64, 1): "arm64v8"
        case (Self.typeARM | Self.abi64, _): "arm64"
        case (Self.typeARM | Self.abi64With32BitPointers, _): "arm64_32"
        case (Self.typeX86 | Self.abi64, 8): "x86_64h"
        case (Self.typeX86 | Self.abi64, _): "x86_64"
        case (Self.typeX86, _): "i386"
        case (Self.typeARM, 6): "armv6"
        case (Self.typeARM, 9): "armv7"
        case (Self.typeARM, 10): "armv7f"
        case (Self.typeARM, 11): "armv7s"
        case (Self.typeARM, 12): "armv7k"
        case (Self.typeARM, 13): "armv8"
        case (Self.typeARM, 14): "armv6m"
        case (Self.typeARM, 15): "armv7m"
        case (Self.typeARM, 16): "armv7em"
        case (Self.typeARM, _): "arm"
        case (Self.typePowerPC, _): "ppc"
        case (Self.typePowerPC | Self.abi64, _): "ppc64"
        default: "cputype \(cpuType) subtype \(cpuSubtype)"
        }
    }

    package var description: String { name }

    /// The architecture Apple's tools call `name` (`arm64e`, `armv7s` …), or nil for a name they do not use.
    package init?(name: String) {
        guard let match = Self.named.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// True when `other` names the same architecture: same CPU type and subtype once capability bits are set
    /// aside (an arm64e slice whose subtype carries the pointer authentication ABI version is still arm64e).
    package func matches(_ other: MachOArchitecture) -> Bool {
        cpuType == other.cpuType && name == other.name
    }
}
