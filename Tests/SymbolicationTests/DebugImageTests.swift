import APMInspectCore
import Testing

@testable import Symbolication

/// A symbol table stand-in: one symbol covering `range`.
private struct OneSymbol: AddressResolver {
    var name: String
    var range: Range<UInt64>

    func locations(at fileAddress: UInt64) -> [SymbolicatedLocation] {
        guard range.contains(fileAddress) else { return [] }
        return [SymbolicatedLocation(symbol: name, symbolOffset: fileAddress - range.lowerBound)]
    }
}

@Suite struct DebugImageTests {
    private func image(_ name: String, arch: MachOArchitecture = .arm64) throws -> DebugImage {
        let file = try MachOFile(path: MachOFixtures.dsym(name))
        let slice = try #require(file.slice(for: arch))
        return try DebugImage(slice: slice)
    }

    /// The answers below are what llvm-symbolizer 19 `--inlines` prints for the same dSYM and addresses.
    @Test func aDWARF5InlineChainOfTheFixtureReadsAsLLVMReadsIt() throws {
        let image = try image("Demo-arm64")
        #expect(image.issues.isEmpty)
        #expect(image.textVMAddress == 0x1_0000_0000)
        #expect(image.uuid?.description == "4C4C4486-5555-3144-A175-2DF7479AC8FA")
        let chain = image.locations(at: 0x1_0000_4048)
        #expect(chain.map(\.symbol) == ["scale", "adjust", "compute"])
        #expect(chain.map(\.line) == [5, 9, 16])
        #expect(chain.map(\.column) == [12, 18, 18])
        #expect(chain.map(\.isInlined) == [true, true, false])
        #expect(Set(chain.compactMap(\.file)) == ["/Demo/src/main.c"])
    }

    @Test func aDWARF4InlineChainInTheSameImage() throws {
        let chain = try image("Demo-arm64").locations(at: 0x1_0000_415c)
        #expect(chain.map(\.symbol) == ["rotate", "mix", "checksum"])
        #expect(chain.map(\.line) == [5, 9, 16])
        #expect(chain.map(\.column) == [19, 13, 16])
        #expect(chain.first?.file == "/Demo/src/util.c")
    }

    @Test func eachSliceOfAFatDSYMAnswersForItsOwnCode() throws {
        let thin = try image("Demo-arm64")
        let fatArm = try image("Demo-fat", arch: .arm64)
        let fatIntel = try image("Demo-fat", arch: .x86_64)
        #expect(fatArm.uuid == thin.uuid)
        #expect(fatIntel.uuid != thin.uuid)
        for address in stride(from: UInt64(0x1_0000_4000), to: 0x1_0000_4100, by: 4) {
            #expect(fatArm.locations(at: address) == thin.locations(at: address))
        }
        #expect(fatIntel.dwarf?.functionCount == thin.dwarf?.functionCount)
    }

    @Test func runtimeAddressesBecomeFileAddressesThroughTheTextVMAddress() throws {
        let image = try image("Demo-arm64")
        #expect(image.fileAddress(of: 0x1_0460_4048, loadAddress: 0x1_0460_0000) == 0x1_0000_4048)
        #expect(image.fileAddress(of: 0x10, loadAddress: 0x1_0460_0000) == nil)
        #expect(image.fileAddress(of: .max, loadAddress: 0) == nil)
    }

    @Test func withoutDWARFTheSymbolTableAnswers() throws {
        let file = try MachOFile(path: MachOFixtures.binary("Demo-arm64"))
        let slice = try #require(file.slices.first)
        let bare = try DebugImage(slice: slice)
        #expect(bare.dwarf == nil)
        // The executable's own symbol table: `compute` starts at 0x100004000 (llvm-nm).
        #expect(bare.locations(at: 0x1_0000_4048) == [SymbolicatedLocation(symbol: "compute", symbolOffset: 0x48)])
        let withSymbols = try DebugImage(
            slice: slice,
            symbols: OneSymbol(name: "compute", range: 0x1_0000_4000..<0x1_0000_4100)
        )
        #expect(
            withSymbols.locations(at: 0x1_0000_4048) == [SymbolicatedLocation(symbol: "compute", symbolOffset: 0x48)]
        )
    }

    @Test func aLineWithoutAFunctionTakesItsNameFromTheSymbolTable() throws {
        var sections = DWARFSample.sections(version: 4)
        // Drop every DIE after the unit DIE: the unit keeps its ranges and line table, no function remains.
        sections.info = DWARFSample.unitOnly(version: 4).info
        let index = try DWARFIndex(sections)
        #expect(index.functionCount == 0)
        let image = DebugImage(
            uuid: nil,
            architecture: .arm64,
            textVMAddress: 0,
            dwarf: index,
            symbols: OneSymbol(name: "render", range: 0x1000..<0x1040)
        )
        let locations = image.locations(at: 0x1004)
        #expect(
            locations == [
                SymbolicatedLocation(symbol: "render", symbolOffset: 4, file: "/src/sample.c", line: 10, column: 3)
            ]
        )
        // Without a symbol there is no function to name: nothing is made up.
        let unnamed = DebugImage(uuid: nil, architecture: .arm64, textVMAddress: 0, dwarf: index)
        #expect(unnamed.locations(at: 0x1004).isEmpty)
        #expect(index.frames(at: 0x1004).first?.line == 10)
    }

    /// A dSYM whose concrete function lost its name and has no symbol table behind it (made by hand to check the
    /// `malformed-frames` property of `apm-inspect fuzz`'s Mach-O worker, which it failed): the answer was the
    /// inlined callees alone, the last marked inlined, and atos printed `adjust` as the function holding the address.
    @Test func aConcreteFunctionNothingNamesLeavesNoAnswerRatherThanItsInlinedCallees() throws {
        let file = try MachOFile(path: MachOFixtures.dsym("Demo-arm64"))
        let slice = try #require(file.slice(for: .arm64))
        var sections = try slice.dwarfSections()
        // `compute` is named through DWARF 5's string offsets table: its entry now points past `.debug_str`.
        let name = Array("compute".utf8) + [0]
        let offset = try #require(
            (1..<(sections.str.count - name.count)).first {
                sections.str[$0 - 1] == 0 && sections.str[$0..<($0 + name.count)].elementsEqual(name)
            }
        )
        var patched = 0
        for at in stride(from: 0, to: sections.strOffsets.count - 3, by: 4) {
            let entry = (0..<4).reduce(0) { $0 | Int(sections.strOffsets[at + $1]) << (8 * $1) }
            guard entry == offset else { continue }
            sections.strOffsets.replaceSubrange(at..<(at + 4), with: [0xF0, 0xFF, 0xFF, 0x7F])
            patched += 1
        }
        #expect(patched == 1)
        let index = try DWARFIndex(sections)
        #expect(index.frames(at: 0x1_0000_4048).map(\.name) == ["scale", "adjust", nil])
        let unnamed = DebugImage(uuid: nil, architecture: .arm64, textVMAddress: 0x1_0000_0000, dwarf: index)
        #expect(unnamed.locations(at: 0x1_0000_4048).isEmpty)
        #expect(index.locations(at: 0x1_0000_4048).isEmpty)
        // With a symbol behind it the function takes its name from the table, as before.
        let named = DebugImage(
            uuid: nil,
            architecture: .arm64,
            textVMAddress: 0x1_0000_0000,
            dwarf: index,
            symbols: OneSymbol(name: "compute", range: 0x1_0000_4000..<0x1_0000_4100)
        )
        #expect(named.locations(at: 0x1_0000_4048).map(\.symbol) == ["scale", "adjust", "compute"])
        #expect(named.locations(at: 0x1_0000_4048).map(\.isInlined) == [true, true, false])
    }
}
