import APMInspectCore
import Testing

@testable import Symbolication

@Suite struct MachOSymbolTableTests {
    /// llvm-nm's listing of a fixture (`expected/<name>.nm`): address and name as the symbol table spells it.
    static func nmListing(_ name: String) throws -> [(address: UInt64, name: String)] {
        let text = String(decoding: try MachOFile.readFile(MachOFixtures.folder + "expected/\(name).nm"), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, let address = UInt64(fields[0], radix: 16) else { return nil }
            return (address, String(fields[2]))
        }
    }

    @Test(arguments: ["Demo-arm64", "Demo-x86_64"])
    func theTableListsWhatLLVMNmLists(name: String) throws {
        let expected = try Self.nmListing(name)
        #expect(expected.count == 13)
        let table = try #require(try MachOFile(path: MachOFixtures.binary(name)).slices.first).symbolTable()
        #expect(table.diagnostics.isEmpty)
        let symbols = table.symbols
        #expect(symbols.map(\.address) == expected.map(\.address))
        // The Mach-O underscore is dropped: `_main` is `main`, `__ZNK4demo…` is `_ZNK4demo…`.
        #expect(symbols.map(\.name) == expected.map { String($0.name.dropFirst()) })
        #expect(symbols.first { $0.name == "main" }?.isExternal == true)
        #expect(symbols.first { $0.name == "_ZN4demo8geometry9RectangleC1Eii" }?.isExternal == false)
    }

    @Test(arguments: ["Demo-arm64", "Demo-x86_64"])
    func everyAddressOfTheCodeResolvesToTheNearestPrecedingSymbolAsAtosDoes(name: String) throws {
        let expected = try Self.nmListing(name).filter { $0.name != "__mh_execute_header" }
        let slice = try #require(try MachOFile(path: MachOFixtures.binary(name)).slices.first)
        let table = try slice.symbolTable()
        let text = try #require(slice.section("__TEXT", "__text"))
        var checked = 0
        for address in text.address..<(text.address + text.size) {
            let owner = try #require(expected.last { $0.address <= address })
            let found = try #require(table.symbol(containing: address))
            #expect(found.symbol.name == String(owner.name.dropFirst()))
            #expect(found.offset == address - owner.address)
            checked += 1
        }
        #expect(checked == Int(text.size))
        // Past the end of the code nothing is blamed on the last function.
        #expect(table.symbol(containing: text.address + text.size) == nil)
        #expect(table.locations(at: text.address + text.size + 4096).isEmpty)
        // Before the code (the Mach-O header) there is no function either.
        #expect(table.locations(at: 0x1_0000_0010).isEmpty)
        #expect(table.locations(at: 0).isEmpty)
    }

    @Test func locationsGiveTheSymbolAndOffsetAndDemangleToApplesForm() throws {
        let slice = try #require(try MachOFile(path: MachOFixtures.binary("Demo-arm64")).slices.first)
        let table = try slice.symbolTable()
        let closure = try #require(table.symbols.first { $0.name.hasPrefix("$s4Demo14ViewController") })
        let locations = table.locations(at: closure.address + 8)
        #expect(
            locations == [
                SymbolicatedLocation(symbol: "$s4Demo14ViewControllerC11viewDidLoadyyFyycfU_", symbolOffset: 8)
            ]
        )
        #expect(Demangler.demangle(locations[0].symbol) == "closure #1 in ViewController.viewDidLoad()")
        let names = table.symbols.map(\.name)
        let demangled = names.compactMap { Demangler.demangle($0) }
        #expect(demangled.contains("Model.update(_:)"))
        #expect(demangled.contains("Widget.draw()"))
        #expect(demangled.contains("demo::geometry::Rectangle::area() const"))
        #expect(Demangler.demangle("main") == nil)
    }

    @Test func theDSYMCarriesTheSameSymbolsAsItsBinary() throws {
        for name in ["Demo-arm64", "Demo-x86_64"] {
            let binary = try #require(try MachOFile(path: MachOFixtures.binary(name)).slices.first).symbolTable()
            let dsym = try #require(try MachOFile(path: MachOFixtures.dsym(name)).slices.first).symbolTable()
            let pairs = Set(binary.symbols.map { "\($0.address) \($0.name)" })
            #expect(
                Set(dsym.symbols.map { "\($0.address) \($0.name)" }).isSuperset(
                    of: pairs.subtracting(["4294967296 _mh_execute_header"])
                )
            )
        }
    }

    @Test func aSliceWithoutASymbolTableResolvesNothing() throws {
        let bytes = SyntheticMachO(is64Bit: true, littleEndian: true).build(symbols: nil)
        let slice = try #require(try MachOFile(bytes: bytes).slices.first)
        let table = try slice.symbolTable()
        #expect(table.count == 0)
        #expect(table.locations(at: 0x1000).isEmpty)
    }
}
