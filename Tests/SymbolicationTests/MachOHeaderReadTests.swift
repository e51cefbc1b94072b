import APMInspectCore
import Foundation
import FuzzReplaySupport
import Testing

@testable import Symbolication

/// Indexing reads a Mach-O's headers and load commands, not the whole file: the slices it finds are the ones the
/// whole file gives, and whatever it cannot read that way falls back to the whole file.
@Suite struct MachOHeaderReadTests {
    static let names = ["Demo-arm64", "Demo-x86_64", "Demo-fat"]

    static var files: [String] {
        names.flatMap { [MachOFixtures.binary($0), MachOFixtures.dsym($0)] }
    }

    @Test(arguments: files)
    func theHeadersGiveTheSlicesTheWholeFileGives(path: String) throws {
        let loader = MachODebugImageLoader()
        let whole = try loader.slices(in: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let headers = try #require(loader.slices(atPath: RawPath(path)))
        #expect(headers == whole)
        #expect(!headers.isEmpty)
    }

    @Test func aStoreBuiltFromHeadersResolvesAsOneBuiltFromWholeFiles() throws {
        let folder = MachOFixtures.folder
        let fromHeaders = DSYMStore(paths: [folder], loader: MachODebugImageLoader())
        let fromBytes = DSYMStore(paths: [folder], loader: WholeFileLoader())
        #expect(fromHeaders.entries == fromBytes.entries)
        #expect(fromHeaders.findings == fromBytes.findings)
    }

    @Test func cutOrDamagedHeadersFallBackToTheWholeFile() throws {
        let space = try StoreTestFolder()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: MachOFixtures.binary("Demo-fat"))))
        let loader = MachODebugImageLoader()
        // Cut inside the fat table and inside the first slice's header: nothing readable either way.
        for (name, damaged) in [("table", Array(bytes.prefix(20))), ("header", Array(bytes.prefix(4096 + 20)))] {
            let path = try space.write(damaged, at: name)
            #expect(loader.slices(atPath: RawPath(path)) == nil, "\(name)")
            // The store still says what the whole file says.
            let store = DSYMStore(paths: [path], loader: loader)
            #expect(store.entries.isEmpty, "\(name)")
            #expect(!store.findings.isEmpty, "\(name)")
        }
        // The first slice's offset past the end: the header read gives up, the whole file keeps the other slice.
        var pastEnd = bytes
        pastEnd[16] = 0x7F
        let path = try space.write(pastEnd, at: "offset")
        #expect(loader.slices(atPath: RawPath(path)) == nil)
        #expect(DSYMStore(paths: [path], loader: loader).entries.map(\.slice.arch) == ["arm64"])
        // Not a file at all.
        #expect(loader.slices(atPath: RawPath(space.path)) == nil)
        #expect(loader.slices(atPath: RawPath(space.path + "/missing")) == nil)
    }
}

/// The real loader without its header-only read: what the store did before.
private struct WholeFileLoader: DebugImageLoader {
    let real = MachODebugImageLoader()

    func slices(in bytes: [UInt8]) throws(SymbolicationError) -> [DebugSlice] { try real.slices(in: bytes) }

    func open(_ bytes: [UInt8], slice: DebugSlice) throws(SymbolicationError) -> any AddressResolver {
        try real.open(bytes, slice: slice)
    }
}
