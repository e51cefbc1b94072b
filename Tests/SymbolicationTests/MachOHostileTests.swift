import APMInspectCore
import Testing

@testable import Symbolication

/// Builds small Mach-O files of any width and byte order, for what the fixtures cannot show (32-bit, big-endian,
/// damaged tables).
struct SyntheticMachO {
    var is64Bit: Bool
    var littleEndian: Bool
    var architecture: MachOArchitecture
    var uuid: [UInt8] = Array(1...16)
    var textAddress: UInt64 = 0x4000
    var code: [UInt8] = Array(repeating: 0xAA, count: 64)
    var dwarf: [(name: String, bytes: [UInt8])] = []

    init(is64Bit: Bool, littleEndian: Bool, architecture: MachOArchitecture? = nil) {
        self.is64Bit = is64Bit
        self.littleEndian = littleEndian
        self.architecture = architecture ?? (is64Bit ? .arm64 : .armv7)
    }

    struct Symbol {
        var name: String
        var type: UInt8 = 0x0F  // N_SECT | N_EXT
        var section: UInt8 = 1
        var value: UInt64
        var nameOffset: UInt32?
    }

    private struct Writer {
        var bytes: [UInt8] = []
        let little: Bool
        mutating func u32(_ value: UInt32) {
            let ordered = little ? value.littleEndian : value.bigEndian
            withUnsafeBytes(of: ordered) { bytes.append(contentsOf: $0) }
        }
        mutating func u64(_ value: UInt64) {
            let ordered = little ? value.littleEndian : value.bigEndian
            withUnsafeBytes(of: ordered) { bytes.append(contentsOf: $0) }
        }
        mutating func word(_ value: UInt64, wide: Bool) {
            if wide { u64(value) } else { u32(UInt32(truncatingIfNeeded: value)) }
        }
        mutating func name(_ text: String) {
            var field = Array(text.utf8.prefix(16))
            field += [UInt8](repeating: 0, count: 16 - field.count)
            bytes += field
        }
    }

    func build(symbols: [Symbol]?) -> [UInt8] {
        let headerSize = is64Bit ? 32 : 28
        let segmentSize = is64Bit ? 72 : 56
        let sectionSize = is64Bit ? 80 : 68
        var commandsSize = segmentSize + sectionSize + 24
        if !dwarf.isEmpty { commandsSize += segmentSize + sectionSize * dwarf.count }
        if symbols != nil { commandsSize += 24 }
        let codeOffset = (headerSize + commandsSize + 15) / 16 * 16
        var dwarfOffsets: [Int] = []
        var cursor = codeOffset + code.count
        for section in dwarf {
            dwarfOffsets.append(cursor)
            cursor += section.bytes.count
        }
        let symbolsOffset = (cursor + 7) / 8 * 8
        let entrySize = is64Bit ? 16 : 12
        var strings: [UInt8] = [0x20, 0]
        var nameOffsets: [UInt32] = []
        for symbol in symbols ?? [] {
            nameOffsets.append(symbol.nameOffset ?? UInt32(strings.count))
            strings += Array(symbol.name.utf8) + [0]
        }
        let stringsOffset = symbolsOffset + (symbols?.count ?? 0) * entrySize

        var out = Writer(little: littleEndian)
        out.u32(is64Bit ? 0xFEED_FACF : 0xFEED_FACE)
        out.u32(UInt32(bitPattern: architecture.cpuType))
        out.u32(UInt32(bitPattern: architecture.cpuSubtype))
        out.u32(2)
        out.u32(UInt32(2 + (dwarf.isEmpty ? 0 : 1) + (symbols == nil ? 0 : 1)))
        out.u32(UInt32(commandsSize))
        out.u32(0)
        if is64Bit { out.u32(0) }
        func segment(_ name: String, _ address: UInt64, _ sections: [(String, String, UInt64, Int, Int)]) {
            out.u32(is64Bit ? 0x19 : 0x1)
            out.u32(UInt32(segmentSize + sectionSize * sections.count))
            out.name(name)
            out.word(address, wide: is64Bit)
            out.word(0x1000, wide: is64Bit)
            out.word(0, wide: is64Bit)
            out.word(0, wide: is64Bit)
            out.u32(5)
            out.u32(5)
            out.u32(UInt32(sections.count))
            out.u32(0)
            for (sectionName, segmentName, address, size, offset) in sections {
                out.name(sectionName)
                out.name(segmentName)
                out.word(address, wide: is64Bit)
                out.word(UInt64(size), wide: is64Bit)
                out.u32(UInt32(offset))
                for _ in 0..<(is64Bit ? 7 : 6) { out.u32(0) }
            }
        }
        segment("__TEXT", textAddress, [("__text", "__TEXT", textAddress, code.count, codeOffset)])
        if !dwarf.isEmpty {
            segment(
                "__DWARF",
                0x8000,
                dwarf.indices.map {
                    ("__" + dwarf[$0].name, "__DWARF", 0x8000, dwarf[$0].bytes.count, dwarfOffsets[$0])
                }
            )
        }
        out.u32(0x1B)
        out.u32(24)
        out.bytes += uuid
        if let symbols {
            out.u32(0x2)
            out.u32(24)
            out.u32(UInt32(symbolsOffset))
            out.u32(UInt32(symbols.count))
            out.u32(UInt32(stringsOffset))
            out.u32(UInt32(strings.count))
        }
        out.bytes += [UInt8](repeating: 0, count: codeOffset - out.bytes.count)
        out.bytes += code
        for section in dwarf { out.bytes += section.bytes }
        out.bytes += [UInt8](repeating: 0, count: symbolsOffset - out.bytes.count)
        for (index, symbol) in (symbols ?? []).enumerated() {
            out.u32(nameOffsets[index])
            out.bytes += [symbol.type, symbol.section]
            if littleEndian { out.bytes += [0, 0] } else { out.bytes += [0, 0] }
            out.word(symbol.value, wide: is64Bit)
        }
        out.bytes += strings
        return out.bytes
    }
}

/// Big-endian helpers for patching fat headers and little-endian ones for the fixtures' own fields.
extension Array where Element == UInt8 {
    fileprivate mutating func put32(_ value: UInt32, at offset: Int, bigEndian: Bool = false) {
        let ordered = bigEndian ? value.bigEndian : value.littleEndian
        Swift.withUnsafeBytes(of: ordered) { replaceSubrange(offset..<(offset + 4), with: $0) }
    }
    fileprivate mutating func put64(_ value: UInt64, at offset: Int, bigEndian: Bool = false) {
        let ordered = bigEndian ? value.bigEndian : value.littleEndian
        Swift.withUnsafeBytes(of: ordered) { replaceSubrange(offset..<(offset + 8), with: $0) }
    }
    fileprivate func get32(at offset: Int, bigEndian: Bool = false) -> UInt32 {
        let raw = withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
    }
}

@Suite struct MachOHostileTests {
    static func fixture(_ path: String) throws -> [UInt8] { try MachOFile.readFile(path) }

    /// Runs `body`, which must throw a `SymbolicationError` of `code` whose key path contains `keyPath`.
    static func expectError(
        _ code: SymbolicationError.Code,
        keyPath: String? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation,
        _ body: () throws(SymbolicationError) -> Void
    ) {
        do {
            try body()
            Issue.record("no error thrown", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.location?.byteOffset != nil, "\(error)", sourceLocation: sourceLocation)
            if let keyPath {
                #expect(error.location?.keyPath?.contains(keyPath) == true, "\(error)", sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: Widths and byte orders

    @Test(arguments: [(true, true), (false, true), (true, false), (false, false)])
    func everyWidthAndByteOrderReadsTheSameSlice(is64Bit: Bool, littleEndian: Bool) throws {
        var builder = SyntheticMachO(
            is64Bit: is64Bit,
            littleEndian: littleEndian,
            architecture: littleEndian ? nil : MachOArchitecture(cpuType: 18, cpuSubtype: 0)
        )
        builder.dwarf = [("debug_info", [1, 2, 3, 4]), ("debug_str_offs", [5, 6]), ("debug_line_str", [7])]
        let bytes = builder.build(symbols: [
            .init(name: "_first", value: 0x4000), .init(name: "_$s4Demo5ModelV6updateyySiF", value: 0x4010),
            .init(name: "stab", type: 0x24, value: 0x4008),  // N_FUN stab: not a symbol
            .init(name: "_undefined", type: 0x01, section: 0, value: 0),
        ])
        let file = try MachOFile(bytes: bytes)
        let slice = try #require(file.slices.first)
        #expect(!file.isFat)
        #expect(slice.is64Bit == is64Bit)
        #expect(slice.isLittleEndian == littleEndian)
        #expect(slice.architecture.name == (littleEndian ? (is64Bit ? "arm64" : "armv7") : "ppc"))
        #expect(slice.uuid?.description == "01020304-0506-0708-090A-0B0C0D0E0F10")
        #expect(slice.textVMAddress == 0x4000)
        let dwarf = try slice.dwarfSections()
        #expect(dwarf.info == [1, 2, 3, 4])
        #expect(dwarf.strOffsets == [5, 6])
        #expect(dwarf.lineStr == [7])
        #expect(dwarf.addressSize == (is64Bit ? 8 : 4))
        #expect(dwarf.isLittleEndian == littleEndian)
        let table = try slice.symbolTable()
        #expect(table.symbols.map(\.name) == ["first", "$s4Demo5ModelV6updateyySiF"])
        #expect(table.locations(at: 0x400C) == [SymbolicatedLocation(symbol: "first", symbolOffset: 12)])
        #expect(table.locations(at: 0x4040).isEmpty)
    }

    // MARK: Truncation

    @Test(arguments: ["Demo-arm64", "Demo-x86_64"])
    func aFileCutAnywhereInItsLoadCommandsIsRefusedWithItsLocation(name: String) throws {
        let bytes = try Self.fixture(MachOFixtures.binary(name))
        let slice = try #require(try MachOFile(bytes: bytes).slices.first)
        let commandsEnd = try #require(slice.loadCommands.last.map { $0.fileOffset + $0.size })
        for cut in 0..<commandsEnd {
            Self.expectError(cut < 4 ? .notMachO : .malformedMachO) { () throws(SymbolicationError) in
                _ = try MachOFile(bytes: Array(bytes[0..<cut]))
            }
        }
    }

    @Test(arguments: ["Demo-arm64", "Demo-x86_64"])
    func aFileCutAfterItsLoadCommandsFailsOnlyWhereItsTablesAre(name: String) throws {
        for path in [MachOFixtures.binary(name), MachOFixtures.dsym(name)] {
            let bytes = try Self.fixture(path)
            let slice = try #require(try MachOFile(bytes: bytes).slices.first)
            let commandsEnd = try #require(slice.loadCommands.last.map { $0.fileOffset + $0.size })
            var cuts = Array(stride(from: commandsEnd, to: bytes.count, by: max(1, (bytes.count - commandsEnd) / 400)))
            cuts.append(bytes.count - 1)
            var refused = 0
            for cut in cuts {
                let cutSlice = try #require(try MachOFile(bytes: Array(bytes[0..<cut])).slices.first)
                #expect(cutSlice.uuid == slice.uuid)
                do {
                    _ = try cutSlice.symbolTable()
                    _ = try cutSlice.dwarfSections()
                } catch {
                    refused += 1
                    #expect(error.code == .malformedMachO)
                    #expect(error.location?.keyPath != nil)
                }
            }
            // The tables sit at the end of the file, so most cuts reach one of them.
            #expect(refused > cuts.count / 2, "\(path)")
        }
    }

    // MARK: Counts at their maximum

    @Test func countsAtTheirMaximumAreRefusedBeforeAnythingIsAllocated() throws {
        let bytes = try Self.fixture(MachOFixtures.binary("Demo-arm64"))
        let slice = try #require(try MachOFile(bytes: bytes).slices.first)

        var ncmds = bytes
        ncmds.put32(.max, at: 16)
        Self.expectError(.malformedMachO, keyPath: "mach_header.ncmds") { () throws(SymbolicationError) in
            _ = try MachOFile(bytes: ncmds)
        }
        var sizeofcmds = bytes
        sizeofcmds.put32(.max, at: 20)
        Self.expectError(.malformedMachO, keyPath: "mach_header.sizeofcmds") { () throws(SymbolicationError) in
            _ = try MachOFile(bytes: sizeofcmds)
        }
        let segment = try #require(slice.segments.first { !$0.sections.isEmpty })
        var nsects = bytes
        nsects.put32(.max, at: segment.loadCommand.fileOffset + 64)
        Self.expectError(.malformedMachO, keyPath: "LC_SEGMENT_64[\(segment.loadCommand.index)].nsects") {
            () throws(SymbolicationError) in _ = try MachOFile(bytes: nsects)
        }
        for size: UInt32 in [0, 4, 7, .max] {
            var cmdsize = bytes
            cmdsize.put32(size, at: segment.loadCommand.fileOffset + 4)
            Self.expectError(.malformedMachO, keyPath: ".cmdsize") { () throws(SymbolicationError) in
                _ = try MachOFile(bytes: cmdsize)
            }
        }
        let symtab = try #require(slice.loadCommands.first { $0.name == "LC_SYMTAB" })
        var nsyms = bytes
        nsyms.put32(.max, at: symtab.fileOffset + 12)
        let parsed = try #require(try MachOFile(bytes: nsyms).slices.first)
        Self.expectError(.malformedMachO, keyPath: "LC_SYMTAB[\(symtab.index)].nsyms") {
            () throws(SymbolicationError) in
            _ = try parsed.symbolTable()
        }
        for field in [16, 20] {
            var strings = bytes
            strings.put32(.max, at: symtab.fileOffset + field)
            let damaged = try #require(try MachOFile(bytes: strings).slices.first)
            Self.expectError(.malformedMachO, keyPath: ".strsize") { () throws(SymbolicationError) in
                _ = try damaged.symbolTable()
            }
        }
    }

    // MARK: Offsets past the end

    @Test func aSectionOrNameOutsideTheFileIsReportedAtItsKeyPath() throws {
        let bytes = try Self.fixture(MachOFixtures.dsym("Demo-arm64"))
        let slice = try #require(try MachOFile(bytes: bytes).slices.first)
        let info = try #require(slice.section("__DWARF", "__debug_info"))
        // Find the section header: its name is followed by the segment name in the load command.
        let dwarfSegment = try #require(slice.segments.first { $0.sections.contains(info) })
        let index = try #require(dwarfSegment.sections.firstIndex(of: info))
        let header = dwarfSegment.loadCommand.fileOffset + 72 + index * 80
        var offset = bytes
        offset.put32(UInt32(bytes.count - 2), at: header + 48)
        let damaged = try #require(try MachOFile(bytes: offset).slices.first)
        Self.expectError(.malformedMachO, keyPath: "__debug_info") { () throws(SymbolicationError) in
            _ = try damaged.dwarfSections()
        }
        var size = bytes
        size.put64(.max, at: header + 40)
        let huge = try #require(try MachOFile(bytes: size).slices.first)
        Self.expectError(.malformedMachO, keyPath: "__debug_info") { () throws(SymbolicationError) in
            _ = try huge.dwarfSections()
        }
    }

    @Test func symbolsWithNamesOrSectionsThatDoNotExistAreSkippedWithADiagnostic() throws {
        let bytes = SyntheticMachO(is64Bit: true, littleEndian: true).build(symbols: [
            .init(name: "_good", value: 0x4000),
            .init(name: "_lost", value: 0x4010, nameOffset: 0xFFFF_FFF0),
            .init(name: "_nowhere", section: 9, value: 0x4020),
            .init(name: "_zero", section: 0, value: 0x4020),
        ])
        let table = try #require(try MachOFile(bytes: bytes).slices.first).symbolTable()
        #expect(table.symbols.map(\.name) == ["good"])
        #expect(table.diagnostics.count == 1)
        #expect(table.diagnostics.first?.code == .machoSymbolsSkipped)
        #expect(table.diagnostics.first?.location?.keyPath?.contains("LC_SYMTAB") == true)
        #expect(table.locations(at: 0x4030) == [SymbolicatedLocation(symbol: "good", symbolOffset: 0x30)])
    }

    @Test func aNameWithoutItsTerminatorStopsAtTheEndOfTheStringTable() throws {
        var bytes = SyntheticMachO(is64Bit: true, littleEndian: true).build(symbols: [
            .init(name: "_tail", value: 0x4000)
        ])
        bytes.removeLast()  // the NUL after "_tail", the last byte of the string table
        let slice = try #require(try MachOFile(bytes: bytes).slices.first)
        Self.expectError(.malformedMachO, keyPath: ".strsize") { () throws(SymbolicationError) in
            _ = try slice.symbolTable()
        }
        // With the table's size shortened to match, the name ends where the table does.
        let symtab = try #require(slice.loadCommands.first { $0.name == "LC_SYMTAB" })
        bytes.put32(bytes.get32(at: symtab.fileOffset + 20) - 1, at: symtab.fileOffset + 20)
        let table = try #require(try MachOFile(bytes: bytes).slices.first).symbolTable()
        #expect(table.symbols.map(\.name) == ["tail"])
    }

    // MARK: Fat headers

    @Test func aSixtyFourBitFatHeaderReadsLikeTheThirtyTwoBitOne() throws {
        let fat = try Self.fixture(MachOFixtures.binary("Demo-fat"))
        let count = Int(fat.get32(at: 4, bigEndian: true))
        #expect(count == 2)
        // Rebuild the same file with FAT_MAGIC_64: 32-byte entries, slices where they were.
        var wide: [UInt8] = []
        wide.put32Append(0xCAFE_BABF)
        wide.put32Append(UInt32(count))
        for index in 0..<count {
            let at = 8 + index * 20
            wide.put32Append(fat.get32(at: at, bigEndian: true))
            wide.put32Append(fat.get32(at: at + 4, bigEndian: true))
            wide.put64Append(UInt64(fat.get32(at: at + 8, bigEndian: true)))
            wide.put64Append(UInt64(fat.get32(at: at + 12, bigEndian: true)))
            wide.put32Append(fat.get32(at: at + 16, bigEndian: true))
            wide.put32Append(0)
        }
        wide += fat[wide.count...]
        let thin = try MachOFile(bytes: fat)
        let read = try MachOFile(bytes: wide)
        #expect(read.isFat)
        #expect(read.diagnostics.isEmpty)
        #expect(read.uuids == thin.uuids)
        #expect(read.slices.map(\.architecture) == thin.slices.map(\.architecture))
    }

    @Test func fatSlicesThatOverlapOrLeaveTheFileAreSkippedWithADiagnostic() throws {
        let fat = try Self.fixture(MachOFixtures.binary("Demo-fat"))
        let first = (offset: fat.get32(at: 16, bigEndian: true), size: fat.get32(at: 20, bigEndian: true))
        // The second slice moved onto the first one.
        var overlapping = fat
        overlapping.put32(first.offset, at: 8 + 20 + 8, bigEndian: true)
        let overlapped = try MachOFile(bytes: overlapping)
        #expect(overlapped.slices.count == 1)
        #expect(overlapped.diagnostics.count == 1)
        #expect(overlapped.diagnostics.first?.location?.keyPath?.contains("fat_arch[1]") == true)
        #expect(overlapped.diagnostics.first?.code == .input(.malformedMachO))
        // A slice past the end of the file.
        var outside = fat
        outside.put32(UInt32(fat.count), at: 8 + 8, bigEndian: true)
        let read = try MachOFile(bytes: outside)
        #expect(read.slices.count == 1)
        #expect(read.diagnostics.first?.location?.keyPath == "fat_arch[0]")
        // A slice over the fat header itself.
        var header = fat
        header.put32(0, at: 8 + 8, bigEndian: true)
        #expect(try MachOFile(bytes: header).slices.count == 1)
        // Both slices unreadable: the file is refused with the first slice's problem.
        var neither = outside
        neither.put32(.max, at: 8 + 20 + 12, bigEndian: true)
        Self.expectError(.malformedMachO, keyPath: "fat_arch[0]") { () throws(SymbolicationError) in
            _ = try MachOFile(bytes: neither)
        }
        #expect(first.size > 0)
    }

    @Test func aFatFileMixesWidthsAndFindsArm64eWhateverItsCapabilityBits() throws {
        let arm64e = MachOArchitecture(cpuType: 0x0100_000C, cpuSubtype: Int32(bitPattern: 0x8000_0002))
        var wide = SyntheticMachO(is64Bit: true, littleEndian: true, architecture: arm64e)
        wide.uuid = Array(repeating: 0xE0, count: 16)
        var narrow = SyntheticMachO(is64Bit: false, littleEndian: true, architecture: .armv7s)
        narrow.uuid = Array(repeating: 0x75, count: 16)
        let slices = [
            wide.build(symbols: [.init(name: "_e", value: 0x4000)]),
            narrow.build(symbols: [.init(name: "_s", value: 0x4000)]),
        ]
        var fat: [UInt8] = []
        fat.put32Append(0xCAFE_BABE)
        fat.put32Append(2)
        var offset = 4096
        var layout: [(Int, [UInt8])] = []
        for (slice, arch) in zip(slices, [arm64e, .armv7s]) {
            fat.put32Append(UInt32(bitPattern: arch.cpuType))
            fat.put32Append(UInt32(bitPattern: arch.cpuSubtype))
            fat.put32Append(UInt32(offset))
            fat.put32Append(UInt32(slice.count))
            fat.put32Append(12)
            layout.append((offset, slice))
            offset += (slice.count + 4095) / 4096 * 4096
        }
        for (at, slice) in layout {
            fat += [UInt8](repeating: 0, count: at - fat.count)
            fat += slice
        }
        let file = try MachOFile(bytes: fat)
        #expect(file.diagnostics.isEmpty)
        let e = try #require(file.slice(for: .arm64e))
        #expect(e.architecture.name == "arm64e")
        #expect(e.uuid == MachOUUID(bytes: Array(repeating: 0xE0, count: 16)))
        #expect(try e.symbolTable().locations(at: 0x4004) == [SymbolicatedLocation(symbol: "e", symbolOffset: 4)])
        let s = try #require(file.slice(for: .armv7s))
        #expect(!s.is64Bit)
        #expect(s.keyPrefix == "fat_arch[1].")
        #expect(try s.symbolTable().locations(at: 0x4008) == [SymbolicatedLocation(symbol: "s", symbolOffset: 8)])
        #expect(file.slice(for: .arm64) == nil)
        #expect(file.slice(for: .armv7) == nil)
    }

    @Test func fatHeadersWithImpossibleCountsAreRefused() throws {
        let fat = try Self.fixture(MachOFixtures.binary("Demo-fat"))
        for (count, code) in [
            (UInt32(0), SymbolicationError.Code.malformedMachO), (31, .notMachO), (.max, .notMachO),
            (30, .malformedMachO),
        ] {
            var bytes = fat
            bytes.put32(count, at: 4, bigEndian: true)
            if count == 30 { bytes = Array(bytes[0..<200]) }
            Self.expectError(code) { () throws(SymbolicationError) in _ = try MachOFile(bytes: bytes) }
        }
        // A Java class file shares the fat magic; its version stands where the count is.
        let javaClass: [UInt8] = [0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x00, 0x00, 0x34] + [UInt8](repeating: 0, count: 64)
        Self.expectError(.notMachO) { () throws(SymbolicationError) in _ = try MachOFile(bytes: javaClass) }
    }

    @Test func emptyAndForeignFilesAreNotMachO() {
        for bytes: [UInt8] in [
            [], [0xFE], Array("{\"app_name\":\"Demo\"}".utf8), [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0],
        ] {
            Self.expectError(.notMachO) { () throws(SymbolicationError) in _ = try MachOFile(bytes: bytes) }
        }
    }

    @Test func aFileThatCannotBeOpenedIsUnreadable() {
        do {
            _ = try MachOFile(path: MachOFixtures.folder + "no-such-file")
            Issue.record("no error")
        } catch {
            #expect(error.code == .unreadable)
        }
        do {
            _ = try MachOFile(path: MachOFixtures.folder)
            Issue.record("no error")
        } catch {
            #expect(error.code == .unreadable)
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func put32Append(_ value: UInt32) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
    fileprivate mutating func put64Append(_ value: UInt64) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
