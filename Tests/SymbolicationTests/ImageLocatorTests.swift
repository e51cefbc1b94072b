import Testing

@testable import Symbolication

/// The locator must answer exactly as ``DebugImage/locations(at:)``: `apm-inspect atos` goes through it, the
/// report rewriters through the image.
@Suite struct ImageLocatorTests {
    /// Every byte of every fixture's `__text` (and a little around it), with the slice's symbol table behind the
    /// DWARF, then with the DWARF alone and the symbol table alone.
    @Test(arguments: ["Demo-arm64", "Demo-x86_64", "Demo-fat"])
    func everyAddressOfTheFixturesReadsAsTheImageReadsIt(name: String) throws {
        let file = try MachOFile(path: MachOFixtures.dsym(name))
        let binary = try MachOFile(path: MachOFixtures.binary(name))
        for slice in file.slices {
            let text = try #require(slice.section("__TEXT", "__text"))
            let table = try binary.slice(for: slice.architecture).map { try $0.symbolTable() }
            let withTable = try DebugImage(slice: slice, symbols: table)
            let images = [
                withTable,
                DebugImage(
                    uuid: nil,
                    architecture: slice.architecture,
                    textVMAddress: withTable.textVMAddress,
                    dwarf: withTable.dwarf
                ),
                DebugImage(
                    uuid: nil,
                    architecture: slice.architecture,
                    textVMAddress: withTable.textVMAddress,
                    dwarf: nil,
                    symbols: table
                ),
            ]
            for image in images {
                let locator = ImageLocator(image: image)
                var locations: [ImageLocator.Location] = []
                var differences = 0
                // Twice over, so that the second pass answers from what the first kept.
                for _ in 0..<2 {
                    for address in (text.address - 16)..<(text.address + text.size + 16) {
                        locator.locations(at: address, into: &locations)
                        if locations.map(locator.plain) != image.locations(at: address) { differences += 1 }
                    }
                }
                #expect(differences == 0, "\(name) \(slice.architecture.name)")
            }
        }
    }

    /// Equal keys stand for equal text, which is what lets a caller keep what it makes of a name under its key.
    @Test func equalKeysHaveEqualText() throws {
        let file = try MachOFile(path: MachOFixtures.dsym("Demo-arm64"))
        let slice = try #require(file.slices.first)
        let binary = try MachOFile(path: MachOFixtures.binary("Demo-arm64"))
        let image = try DebugImage(slice: slice, symbols: try binary.slices.first?.symbolTable())
        let text = try #require(slice.section("__TEXT", "__text"))
        let locator = ImageLocator(image: image)
        var locations: [ImageLocator.Location] = []
        var symbols: [Int: String] = [:]
        var files: [Int: String] = [:]
        var keyed = 0
        for address in text.address..<(text.address + text.size) {
            locator.locations(at: address, into: &locations)
            for location in locations {
                if location.symbolKey >= 0 {
                    keyed += 1
                    let symbol = locator.symbol(of: location)
                    #expect(symbols[location.symbolKey, default: symbol] == symbol)
                    symbols[location.symbolKey] = symbol
                }
                if location.fileKey >= 0, let path = locator.file(of: location) {
                    #expect(files[location.fileKey, default: path] == path)
                    files[location.fileKey] = path
                }
            }
        }
        #expect(keyed > 0)
    }
}
