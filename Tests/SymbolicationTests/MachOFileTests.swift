import APMInspectCore
import Testing

@testable import Symbolication

/// The committed fixtures (made by `Scripts/make-symbolication-fixtures.sh`), found from this file's path.
enum MachOFixtures {
    static let folder: String = {
        var path = "\(#filePath)"
        while let last = path.last, last != "/" { path.removeLast() }
        return path + "Fixtures/"
    }()

    /// The thin or fat executable called `name`.
    static func binary(_ name: String) -> String { folder + name }

    /// The DWARF companion file inside `name`'s dSYM bundle.
    static func dsym(_ name: String) -> String { folder + "\(name).dSYM/Contents/Resources/DWARF/\(name)" }

    /// The (file, UUID, arch) rows of MANIFEST.md's UUID table, as `llvm-dwarfdump --uuid` printed them.
    static func manifestUUIDs() throws -> [(file: String, uuid: String, arch: String)] {
        let text = String(decoding: try MachOFile.readFile(folder + "MANIFEST.md"), as: UTF8.self)
        var rows: [(String, String, String)] = []
        for line in text.split(separator: "\n") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: " `") }
            guard cells.count == 3, MachOUUID(string: cells[1]) != nil else { continue }
            rows.append((cells[0], cells[1], cells[2]))
        }
        return rows
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let unwanted = Set(set)
        return String(
            drop(while: { unwanted.contains($0) }).reversed().drop(while: { unwanted.contains($0) }).reversed()
        )
    }
}

@Suite struct MachOFileTests {
    @Test func everyUUIDAndArchitectureIsTheOneLLVMDwarfdumpPrinted() throws {
        let rows = try MachOFixtures.manifestUUIDs()
        // Three thin files, their dSYMs, and two slices each for the fat binary and its dSYM.
        #expect(rows.count == 8)
        for row in rows {
            let path: String
            if row.file.hasSuffix(".dSYM") {
                path = MachOFixtures.dsym(String(row.file.dropLast(5)))
            } else {
                path = MachOFixtures.binary(row.file)
            }
            let file = try MachOFile(path: path)
            let uuid = try #require(MachOUUID(string: row.uuid))
            let slice = try #require(file.slice(uuid: uuid), "\(row.file) has no slice \(row.uuid)")
            #expect(slice.architecture.name == row.arch, "\(row.file)")
            #expect(slice.uuid?.description == row.uuid)
        }
    }

    @Test func theFatBinaryHoldsBothThinBinariesSlices() throws {
        let fat = try MachOFile(path: MachOFixtures.binary("Demo-fat"))
        let arm64 = try MachOFile(path: MachOFixtures.binary("Demo-arm64"))
        let x86 = try MachOFile(path: MachOFixtures.binary("Demo-x86_64"))
        #expect(fat.isFat)
        #expect(!arm64.isFat)
        #expect(fat.diagnostics.isEmpty)
        #expect(fat.slices.map(\.architecture.name).sorted() == ["arm64", "x86_64"])
        #expect(Set(fat.uuids) == Set(arm64.uuids + x86.uuids))
        let slice = try #require(fat.slice(for: .arm64))
        #expect(slice.fileOffset > 0)
        #expect(slice.uuid == arm64.slices.first?.uuid)
        #expect(slice.loadCommands.count == arm64.slices.first?.loadCommands.count)
    }

    @Test func slicesGiveTheirTextAddressSegmentsAndLoadCommands() throws {
        for name in ["Demo-arm64", "Demo-x86_64"] {
            let slice = try #require(try MachOFile(path: MachOFixtures.binary(name)).slices.first)
            #expect(slice.is64Bit)
            #expect(slice.isLittleEndian)
            #expect(slice.fileType == 2)  // MH_EXECUTE
            #expect(slice.textVMAddress == 0x1_0000_0000)
            #expect(slice.segments.map(\.name).contains("__LINKEDIT"))
            let text = try #require(slice.section("__TEXT", "__text"))
            #expect(text.address >= 0x1_0000_0000)
            #expect(text.size > 0)
            #expect(try slice.bytes(of: text).count == Int(text.size))
            #expect(slice.loadCommands.contains { $0.name == "LC_UUID" })
            #expect(slice.loadCommands.contains { $0.name == "LC_SYMTAB" })
            // Unknown commands are kept too: every command's size adds up to the header's sizeofcmds.
            #expect(slice.loadCommands.map(\.size).reduce(0, +) > 0)
            // The executable carries no DWARF of its own: it lives in the dSYM.
            #expect(try slice.dwarfSections().isEmpty)
        }
    }

    @Test func theDSYMHandsOverEveryDWARFSectionDsymutilWrote() throws {
        let file = try MachOFile(path: MachOFixtures.dsym("Demo-arm64"))
        let slice = try #require(file.slices.first)
        #expect(slice.fileType == MachOSlice.fileTypeDSYM)
        #expect(slice.textVMAddress == 0x1_0000_0000)
        #expect(slice.section("__DWARF", "__debug_str_offs") != nil)
        let dwarf = try slice.dwarfSections()
        #expect(!dwarf.isEmpty)
        #expect(dwarf.addressSize == 8)
        #expect(dwarf.isLittleEndian)
        for (name, bytes) in [
            ("info", dwarf.info), ("abbrev", dwarf.abbrev), ("line", dwarf.line), ("str", dwarf.str),
            ("line_str", dwarf.lineStr), ("str_offsets", dwarf.strOffsets), ("addr", dwarf.addr),
            ("aranges", dwarf.aranges),
        ] {
            #expect(!bytes.isEmpty, "__debug_\(name) is missing")
        }
        // The first unit is main.c, compiled -gdwarf-5: its version field follows the 4-byte unit length.
        #expect(dwarf.info.count > 6)
        #expect(dwarf.info[4] == 5 && dwarf.info[5] == 0)
        #expect(dwarf.str.contains(0))
        let info = try #require(slice.section("__DWARF", "__debug_info"))
        #expect(dwarf.info.count == Int(info.size))
    }

    @Test func theFatDSYMGivesEachSliceItsOwnDWARF() throws {
        let fat = try MachOFile(path: MachOFixtures.dsym("Demo-fat"))
        let thin = try MachOFile(path: MachOFixtures.dsym("Demo-x86_64"))
        let fromFat = try #require(fat.slice(for: .x86_64)).dwarfSections()
        let fromThin = try #require(thin.slices.first).dwarfSections()
        #expect(fromFat == fromThin)
        let arm = try #require(fat.slice(for: .arm64)).dwarfSections()
        #expect(arm != fromFat)
    }

    @Test func uuidsParseInEveryFormReportsUse() throws {
        let dashed = try #require(MachOUUID(string: "4c4c44a9-5555-3144-a1f6-5da1eeb71e0f"))
        #expect(MachOUUID(string: "<4c4c44a955553144a1f65da1eeb71e0f>") == dashed)
        #expect(MachOUUID(string: "4C4C44A955553144A1F65DA1EEB71E0F") == dashed)
        #expect(dashed.description == "4C4C44A9-5555-3144-A1F6-5DA1EEB71E0F")
        #expect(MachOUUID(string: "4c4c44a9-5555-3144-a1f6-5da1eeb71e0") == nil)
        #expect(MachOUUID(string: "4c4c44a9-5555-3144-a1f6-5da1eeb71e0f0") == nil)
        #expect(MachOUUID(string: "zz4c44a9-5555-3144-a1f6-5da1eeb71e0f") == nil)
    }

    @Test func architecturesAreNamedAsApplesToolsNameThem() {
        let cases: [(Int32, Int32, String)] = [
            (0x0100_000C, 0, "arm64"), (0x0100_000C, 2, "arm64e"),
            // arm64e with its pointer authentication ABI version in the capability bits is still arm64e.
            (0x0100_000C, Int32(bitPattern: 0x8000_0002), "arm64e"),
            (0x0100_0007, 3, "x86_64"), (0x0100_0007, 8, "x86_64h"), (7, 3, "i386"), (12, 9, "armv7"),
            (12, 11, "armv7s"), (12, 12, "armv7k"), (0x0200_000C, 1, "arm64_32"), (42, 1, "cputype 42 subtype 1"),
        ]
        for (type, subtype, name) in cases {
            let arch = MachOArchitecture(cpuType: type, cpuSubtype: subtype)
            #expect(arch.name == name)
            if !name.hasPrefix("cputype") { #expect(MachOArchitecture(name: name)?.matches(arch) == true) }
        }
        #expect(MachOArchitecture.arm64_32.is64Bit == false)
        #expect(MachOArchitecture(name: "sparc") == nil)
    }
}
