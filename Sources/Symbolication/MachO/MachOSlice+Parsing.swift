import APMInspectCore

extension MachOSlice {
    static let magic32: UInt32 = 0xFEED_FACE
    static let magic64: UInt32 = 0xFEED_FACF

    /// The byte order and width a thin Mach-O magic announces, read as little-endian; nil for anything else.
    static func kind(ofMagic littleEndianValue: UInt32) -> (is64Bit: Bool, isLittleEndian: Bool)? {
        switch littleEndianValue {
        case magic32: (false, true)
        case magic64: (true, true)
        case magic32.byteSwapped: (false, false)
        case magic64.byteSwapped: (true, false)
        default: nil
        }
    }

    /// Reads the slice of `size` bytes at `offset`; throws when its header or load commands cannot be trusted.
    init(file: MachOBytes, offset: Int, size: Int, keyPrefix: String) throws(SymbolicationError) {
        func fail(_ code: SymbolicationError.Code, _ message: String, _ at: Int, _ path: String) -> SymbolicationError {
            SymbolicationError(code, message, at: SourceLocation(byteOffset: at, keyPath: keyPrefix + path))
        }
        guard let sliceEnd = MachOBytes.end(offset, size), sliceEnd <= file.count else {
            throw fail(
                .malformedMachO,
                "the slice (\(size) bytes at \(offset)) runs past the end of the file",
                offset,
                ""
            )
        }
        guard let magic = file.u32(at: offset, littleEndian: true), sliceEnd - offset >= 4,
            let kind = Self.kind(ofMagic: magic)
        else {
            throw fail(
                .notMachO,
                "no Mach-O magic (0xfeedface or 0xfeedfacf, either byte order)",
                offset,
                "mach_header"
            )
        }
        let little = kind.isLittleEndian
        let headerSize = kind.is64Bit ? 32 : 28
        guard size >= headerSize, let cpuType = file.u32(at: offset + 4, littleEndian: little),
            let cpuSubtype = file.u32(at: offset + 8, littleEndian: little),
            let fileType = file.u32(at: offset + 12, littleEndian: little),
            let commandCount = file.u32(at: offset + 16, littleEndian: little),
            let commandsSize = file.u32(at: offset + 20, littleEndian: little),
            let flags = file.u32(at: offset + 24, littleEndian: little)
        else {
            throw fail(
                .malformedMachO,
                "the \(headerSize)-byte Mach-O header is cut off (\(size) bytes)",
                offset,
                "mach_header"
            )
        }
        let commandsStart = offset + headerSize
        guard let commandsLength = MachOBytes.offset(commandsSize), commandsLength <= sliceEnd - commandsStart else {
            throw fail(
                .malformedMachO,
                "sizeofcmds (\(commandsSize) bytes) runs past the end of the slice (\(sliceEnd - commandsStart) bytes "
                    + "after the header)",
                offset + 20,
                "mach_header.sizeofcmds"
            )
        }
        // Every command takes at least 8 bytes, so this also bounds what the loop below allocates by the file.
        guard UInt64(commandCount) * 8 <= UInt64(commandsLength) else {
            throw fail(
                .malformedMachO,
                "ncmds (\(commandCount)) cannot fit in sizeofcmds (\(commandsSize) bytes, 8 bytes a command at least)",
                offset + 16,
                "mach_header.ncmds"
            )
        }
        let commandsEnd = commandsStart + commandsLength
        var commands: [MachOLoadCommand] = []
        commands.reserveCapacity(Int(commandCount))
        var segments: [MachOSegment] = []
        var uuid: MachOUUID?
        var symtab: SymtabCommand?
        var cursor = commandsStart
        for index in 0..<Int(commandCount) {
            guard let command = file.u32(at: cursor, littleEndian: little),
                let commandSize = file.u32(at: cursor + 4, littleEndian: little), cursor + 8 <= commandsEnd
            else {
                throw fail(
                    .malformedMachO,
                    "load command \(index) starts past sizeofcmds",
                    cursor,
                    "load_commands[\(index)]"
                )
            }
            let loaded = MachOLoadCommand(command: command, index: index, fileOffset: cursor, size: Int(commandSize))
            guard commandSize >= 8, Int(commandSize) <= commandsEnd - cursor else {
                throw fail(
                    .malformedMachO,
                    "cmdsize \(commandSize) of \(loaded.name) is under 8 or runs past sizeofcmds",
                    cursor + 4,
                    loaded.keyPath + ".cmdsize"
                )
            }
            let body = MachOCommandBody(
                file: file,
                start: cursor,
                size: Int(commandSize),
                littleEndian: little,
                keyPath: keyPrefix + loaded.keyPath
            )
            switch command {
            case MachOLoadCommand.segment, MachOLoadCommand.segment64:
                segments.append(try body.segment(is64Bit: command == MachOLoadCommand.segment64, loaded))
            case MachOLoadCommand.uuid:
                if uuid == nil { uuid = try body.uuid() }
            case MachOLoadCommand.symtab:
                if symtab == nil { symtab = try body.symtab(loaded) }
            default:
                break
            }
            commands.append(loaded)
            cursor += Int(commandSize)
        }
        self.architecture = MachOArchitecture(
            cpuType: Int32(bitPattern: cpuType),
            cpuSubtype: Int32(bitPattern: cpuSubtype)
        )
        self.is64Bit = kind.is64Bit
        self.isLittleEndian = little
        self.fileType = fileType
        self.flags = flags
        self.fileOffset = offset
        self.size = size
        self.loadCommands = commands
        self.segments = segments
        self.uuid = uuid
        self.keyPrefix = keyPrefix
        self.file = file
        self.symtab = symtab
    }
}

/// The bytes of one load command, read with the checks its kind needs.
private struct MachOCommandBody {
    let file: MachOBytes
    let start: Int
    let size: Int
    let littleEndian: Bool
    let keyPath: String

    func error(_ message: String, at offset: Int, _ suffix: String = "") -> SymbolicationError {
        SymbolicationError(
            .malformedMachO,
            message,
            at: SourceLocation(byteOffset: start + offset, keyPath: keyPath + suffix)
        )
    }

    func u32(_ offset: Int) -> UInt32 {
        // Callers check `size` first; a read past the command returns 0 rather than trapping.
        guard offset + 4 <= size else { return 0 }
        return file.u32(at: start + offset, littleEndian: littleEndian) ?? 0
    }

    func u64(_ offset: Int) -> UInt64 {
        guard offset + 8 <= size else { return 0 }
        return file.u64(at: start + offset, littleEndian: littleEndian) ?? 0
    }

    func fixedName(_ offset: Int) -> String {
        guard offset + 16 <= size else { return "" }
        return file.name(at: start + offset, width: 16) ?? ""
    }

    func uuid() throws(SymbolicationError) -> MachOUUID? {
        guard size >= 24, let bytes = file.copy(at: start + 8, count: 16) else {
            throw error("LC_UUID is \(size) bytes, under the 24 it needs", at: 4, ".cmdsize")
        }
        return MachOUUID(bytes: bytes)
    }

    func symtab(_ command: MachOLoadCommand) throws(SymbolicationError) -> MachOSlice.SymtabCommand {
        guard size >= 24 else { throw error("LC_SYMTAB is \(size) bytes, under the 24 it needs", at: 4, ".cmdsize") }
        return MachOSlice.SymtabCommand(
            symbolOffset: u32(8),
            symbolCount: u32(12),
            stringOffset: u32(16),
            stringSize: u32(20),
            loadCommand: command
        )
    }

    func segment(is64Bit: Bool, _ command: MachOLoadCommand) throws(SymbolicationError) -> MachOSegment {
        let headerSize = is64Bit ? 72 : 56
        let sectionSize = is64Bit ? 80 : 68
        guard size >= headerSize else {
            throw error("\(command.name) is \(size) bytes, under the \(headerSize) it needs", at: 4, ".cmdsize")
        }
        let name = fixedName(8)
        let vmAddress = is64Bit ? u64(24) : UInt64(u32(24))
        let vmSize = is64Bit ? u64(32) : UInt64(u32(28))
        let fileOffset = is64Bit ? u64(40) : UInt64(u32(32))
        let fileSize = is64Bit ? u64(48) : UInt64(u32(36))
        let sectionCountOffset = is64Bit ? 64 : 48
        let sectionCount = u32(sectionCountOffset)
        guard UInt64(sectionCount) * UInt64(sectionSize) <= UInt64(size - headerSize) else {
            throw error(
                "nsects (\(sectionCount)) of \(sectionSize) bytes each does not fit in the command's "
                    + "\(size - headerSize) bytes after its header",
                at: sectionCountOffset,
                ".nsects"
            )
        }
        var sections: [MachOSection] = []
        sections.reserveCapacity(Int(sectionCount))
        for index in 0..<Int(sectionCount) {
            let at = headerSize + index * sectionSize
            let sectionName = fixedName(at)
            sections.append(
                MachOSection(
                    name: sectionName,
                    segmentName: fixedName(at + 16),
                    address: is64Bit ? u64(at + 32) : UInt64(u32(at + 32)),
                    size: is64Bit ? u64(at + 40) : UInt64(u32(at + 36)),
                    offset: is64Bit ? u32(at + 48) : u32(at + 40),
                    flags: is64Bit ? u32(at + 64) : u32(at + 56),
                    keyPath: command.keyPath + "." + (sectionName.isEmpty ? "section[\(index)]" : sectionName)
                )
            )
        }
        return MachOSegment(
            name: name,
            vmAddress: vmAddress,
            vmSize: vmSize,
            fileOffset: fileOffset,
            fileSize: fileSize,
            sections: sections,
            loadCommand: command
        )
    }
}
