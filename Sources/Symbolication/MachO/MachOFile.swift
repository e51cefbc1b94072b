import APMInspectCore

/// A Mach-O file, thin or fat: an executable, a dylib or a dSYM's DWARF companion, with one slice per architecture.
///
/// A fat file whose slices are partly unreadable keeps the slices that read, with a diagnostic for each one that
/// did not; only a file with no readable slice at all throws.
package struct MachOFile: Sendable {
    /// The slices in `fat_arch` order (one for a thin file).
    package let slices: [MachOSlice]
    /// True when the file starts with a fat header (`FAT_MAGIC` or `FAT_MAGIC_64`).
    package let isFat: Bool
    /// Slices skipped and why.
    package let diagnostics: [Diagnostic]

    static let fatMagic: UInt32 = 0xCAFE_BABE
    static let fatMagic64: UInt32 = 0xCAFE_BABF

    /// Reads the file's headers and load commands; section and symbol bytes are read when asked for.
    package init(bytes: [UInt8]) throws(SymbolicationError) {
        try self.init(file: MachOBytes(bytes: bytes))
    }

    /// Reads the headers and load commands of `file`, the whole file or the parts of it that hold them.
    init(file: MachOBytes) throws(SymbolicationError) {
        guard let magic = file.u32(at: 0, littleEndian: false) else {
            throw SymbolicationError(
                .notMachO,
                "\(file.count) bytes are too few for a Mach-O header",
                at: SourceLocation(byteOffset: 0)
            )
        }
        guard magic == Self.fatMagic || magic == Self.fatMagic64 else {
            slices = [try MachOSlice(file: file, offset: 0, size: file.count, keyPrefix: "")]
            isFat = false
            diagnostics = []
            return
        }
        isFat = true
        var diagnostics: [Diagnostic] = []
        var slices: [MachOSlice] = []
        var firstError: SymbolicationError?
        for entry in try Self.fatArchitectures(file, is64Bit: magic == Self.fatMagic64) {
            switch entry {
            case .failure(let error):
                firstError = firstError ?? error
                diagnostics.append(.input(.error, error))
            case .success(let slice):
                slices.append(slice)
            }
        }
        if slices.isEmpty, let firstError { throw firstError }
        self.slices = slices
        self.diagnostics = diagnostics
    }

    /// The slice for `architecture` (capability bits of the subtype set aside), if the file has one.
    package func slice(for architecture: MachOArchitecture) -> MachOSlice? {
        slices.first { $0.architecture.matches(architecture) }
    }

    /// The slice whose LC_UUID is `uuid`, if any.
    package func slice(uuid: MachOUUID) -> MachOSlice? {
        slices.first { $0.uuid == uuid }
    }

    /// Every slice's UUID, in slice order (slices without one left out).
    package var uuids: [MachOUUID] { slices.compactMap(\.uuid) }

    /// Reads the fat header's table and each slice it lists, with its problem when it cannot be read.
    private static func fatArchitectures(
        _ file: MachOBytes,
        is64Bit: Bool
    ) throws(SymbolicationError) -> [Result<MachOSlice, SymbolicationError>] {
        guard let count = file.u32(at: 4, littleEndian: false) else {
            throw SymbolicationError(.malformedMachO, "the fat header is cut off", at: SourceLocation(byteOffset: 4))
        }
        guard count > 0 else {
            throw SymbolicationError(
                .malformedMachO,
                "the fat header lists no architectures",
                at: SourceLocation(byteOffset: 4, keyPath: "fat_header.nfat_arch")
            )
        }
        guard count <= MachOLimits.maxFatArchitectures else {
            throw SymbolicationError(
                .notMachO,
                "the fat header would list \(count) architectures, more than \(MachOLimits.maxFatArchitectures): a "
                    + "Java class file shares its magic, or this is not Mach-O",
                at: SourceLocation(byteOffset: 4, keyPath: "fat_header.nfat_arch")
            )
        }
        let entrySize = is64Bit ? 32 : 20
        let tableEnd = 8 + Int(count) * entrySize
        guard tableEnd <= file.count else {
            throw SymbolicationError(
                .malformedMachO,
                "the fat header's \(count) entries (\(tableEnd) bytes) run past the end of the \(file.count)-byte file",
                at: SourceLocation(byteOffset: 8, keyPath: "fat_arch")
            )
        }
        var results: [Result<MachOSlice, SymbolicationError>] = []
        var taken: [(index: Int, range: Range<Int>)] = []
        for index in 0..<Int(count) {
            let at = 8 + index * entrySize
            let keyPath = "fat_arch[\(index)]"
            let cpuType = file.u32(at: at, littleEndian: false) ?? 0
            let cpuSubtype = file.u32(at: at + 4, littleEndian: false) ?? 0
            let offset =
                is64Bit
                ? file.u64(at: at + 8, littleEndian: false) : file.u32(at: at + 8, littleEndian: false).map(UInt64.init)
            let size =
                is64Bit
                ? file.u64(at: at + 16, littleEndian: false)
                : file.u32(at: at + 12, littleEndian: false).map(UInt64.init)
            let arch = MachOArchitecture(cpuType: Int32(bitPattern: cpuType), cpuSubtype: Int32(bitPattern: cpuSubtype))
            guard let offset = offset.flatMap(MachOBytes.offset), let size = size.flatMap(MachOBytes.offset),
                let end = MachOBytes.end(offset, size), end <= file.count, offset >= tableEnd
            else {
                results.append(
                    .failure(
                        SymbolicationError(
                            .malformedMachO,
                            "the \(arch) slice (\(size.map(String.init) ?? "?") bytes at \(offset.map(String.init) ?? "?")) "
                                + "lies outside the file or over the fat header",
                            at: SourceLocation(byteOffset: at + 8, keyPath: keyPath)
                        )
                    )
                )
                continue
            }
            if let other = taken.first(where: { $0.range.overlaps(offset..<end) }) {
                results.append(
                    .failure(
                        SymbolicationError(
                            .malformedMachO,
                            "the \(arch) slice (\(size) bytes at \(offset)) overlaps an earlier slice; skipped",
                            at: SourceLocation(
                                byteOffset: at + 8,
                                keyPath: keyPath + " (overlaps fat_arch[\(other.index)])"
                            )
                        )
                    )
                )
                continue
            }
            taken.append((index, offset..<end))
            do {
                results.append(
                    .success(try MachOSlice(file: file, offset: offset, size: size, keyPrefix: keyPath + "."))
                )
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }
}
