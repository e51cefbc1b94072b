import APMInspectCore

/// One architecture's Mach-O image: the whole file when it is thin, one `fat_arch` of a fat file.
///
/// The slice keeps the file's bytes (shared, not copied) and its parsed load commands; section bytes are copied
/// out on demand, each range checked against the slice first.
package struct MachOSlice: Sendable {
    /// CPU type and subtype from the slice's own header.
    package let architecture: MachOArchitecture
    /// True for a 64-bit header (`MH_MAGIC_64`): 64-bit segments, sections and symbols.
    package let is64Bit: Bool
    package let isLittleEndian: Bool
    /// The header's `filetype`: 2 for an executable, 6 for a dylib, 10 (`MH_DSYM`) for a dSYM's companion file.
    package let fileType: UInt32
    package let flags: UInt32
    /// Where the slice starts in the file, and its size.
    package let fileOffset: Int
    package let size: Int
    /// Every load command in file order, understood or not.
    package let loadCommands: [MachOLoadCommand]
    package let segments: [MachOSegment]
    /// LC_UUID; nil when the slice has none (a binary linked with `-no_uuid`).
    package let uuid: MachOUUID?
    /// Prefix of this slice's key paths in errors: empty for a thin file, `fat_arch[1].` in a fat one.
    package let keyPrefix: String

    let file: MachOBytes
    let symtab: SymtabCommand?

    /// LC_SYMTAB's fields, relative to the slice.
    struct SymtabCommand: Sendable {
        var symbolOffset: UInt32
        var symbolCount: UInt32
        var stringOffset: UInt32
        var stringSize: UInt32
        var loadCommand: MachOLoadCommand
    }

    /// `MH_DSYM`: the file type of the DWARF companion inside a `.dSYM` bundle.
    package static let fileTypeDSYM: UInt32 = 0xA

    /// The `__TEXT` segment's vmaddr; nil when the slice has none (an object file).
    ///
    /// A runtime address minus the image's load address, plus this, is the file address resolvers take.
    package var textVMAddress: UInt64? {
        segments.first { $0.name == "__TEXT" }?.vmAddress
    }

    /// Pointer size in bytes: 8 for arm64 and x86_64, 4 for armv7 and arm64_32.
    package var addressSize: Int { is64Bit ? 8 : 4 }

    /// Every section of every segment, in load command order.
    package var sections: [MachOSection] { segments.flatMap(\.sections) }

    /// The first section called `name` whose own segment name is `segment`.
    package func section(_ segment: String, _ name: String) -> MachOSection? {
        for candidate in segments {
            if let match = candidate.sections.first(where: { $0.segmentName == segment && $0.name == name }) {
                return match
            }
        }
        return nil
    }

    /// A copy of the section's bytes.
    ///
    /// A zero-fill section has none; a section whose range leaves the slice throws.
    package func bytes(of section: MachOSection) throws(SymbolicationError) -> [UInt8] {
        if section.isZeroFill || section.size == 0 { return [] }
        guard let count = MachOBytes.offset(section.size), let start = MachOBytes.offset(section.offset),
            let end = MachOBytes.end(start, count), end <= size,
            let bytes = file.copy(at: fileOffset + start, count: count)
        else {
            throw SymbolicationError(
                .malformedMachO,
                "section \(section.segmentName),\(section.name) (\(section.size) bytes at \(section.offset)) lies "
                    + "outside its \(size)-byte slice",
                at: location(fileOffset + Int(section.offset), keyPath: section.keyPath)
            )
        }
        return bytes
    }

    func location(_ byteOffset: Int, keyPath: String) -> SourceLocation {
        SourceLocation(byteOffset: byteOffset, keyPath: keyPrefix + keyPath)
    }
}
