import APMInspectCore
import CrashReportParsing
import Foundation
import FuzzReplaySupport
import Testing

@testable import Symbolication

/// A private folder for one test's generated files, removed when the test ends.
final class StoreTestFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "/apm-inspect-store-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    func write(_ bytes: [UInt8], at relative: String) throws -> String {
        let file = path + "/" + relative
        let folder = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
        }
        return file
    }
}

@Suite struct StoreTests {
    static let arm64UUID = "4c4c448655553144a1752df7479ac8fa"
    static let x86UUID = "4c4c448e55553144a15d64c4e4fa849b"
    private let loader = MachODebugImageLoader()

    private func dwarfBytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: MachOFixtures.dsym(name))))
    }

    private func functions(_ lookup: SymbolLookup, at address: UInt64) -> [String] {
        guard case .found(let image) = lookup else { return [] }
        return image.resolver.locations(at: address).map(\.symbol)
    }

    @Test func indexesADSYMBundleAndOpensItOnDemandOnce() throws {
        let store = DSYMStore(paths: [MachOFixtures.folder + "Demo-arm64.dSYM"], loader: loader)
        #expect(store.entries.map(\.slice.uuid) == [Self.arm64UUID])
        #expect(store.entries.first?.slice.arch == "arm64")
        #expect(store.entries.first?.slice.textVMAddress == 0x1_0000_0000)
        #expect(store.findings.isEmpty)
        #expect(store.openedCount == 0)
        let lookup = store.image(uuid: Self.arm64UUID, arch: "arm64")
        // llvm-symbolizer --inlines at 0x10000404c: scale, adjust, compute.
        #expect(functions(lookup, at: 0x1_0000_404C) == ["scale", "adjust", "compute"])
        _ = store.image(uuid: Self.arm64UUID, arch: nil)
        #expect(store.openedCount == 1)
        guard case .missing = store.image(uuid: Self.x86UUID, arch: "x86_64") else {
            Issue.record("a UUID that was not given was found")
            return
        }
    }

    @Test func searchesFoldersAndPrefersDSYMsOverBinaries() throws {
        // The fixtures folder holds thin and fat binaries and their dSYMs: each UUID and arch once, from a dSYM.
        let store = DSYMStore(paths: [MachOFixtures.folder], loader: loader)
        let keys = Set(store.entries.map { $0.slice.uuid + "/" + $0.slice.arch })
        #expect(keys == [Self.arm64UUID + "/arm64", Self.x86UUID + "/x86_64"])
        for entry in store.entries { #expect(entry.location.description.contains(".dSYM/Contents/Resources/DWARF/")) }
        // x86_64 `Rectangle::area` starts at 0x100000450 (llvm-nm).
        #expect(
            functions(store.image(uuid: Self.x86UUID, arch: "x86_64"), at: 0x1_0000_0460) == [
                "_ZNK4demo8geometry9Rectangle4areaEv"
            ]
        )
    }

    @Test func readsFatDSYMsAndBinariesThroughTheirSymbolTables() throws {
        let fat = DSYMStore(paths: [MachOFixtures.dsym("Demo-fat")], loader: loader)
        #expect(Set(fat.entries.map(\.slice.arch)) == ["arm64", "x86_64"])
        #expect(functions(fat.image(uuid: Self.arm64UUID, arch: "arm64"), at: 0x1_0000_40C0) == ["main"])
        // A binary has no DWARF: its symbol table answers, `symbol + offset` without a file, as atos does.
        let binary = DSYMStore(paths: [MachOFixtures.binary("Demo-x86_64")], loader: loader)
        #expect(binary.entries.count == 1)
        guard case .found(let image) = binary.image(uuid: Self.x86UUID, arch: nil) else {
            Issue.record("a binary's symbol table was not opened")
            return
        }
        // llvm-nm: _main at 0x100000300.
        let main = image.resolver.locations(at: 0x1_0000_0310)
        #expect(main.map(\.symbol) == ["main"])
        #expect(main.first?.symbolOffset == 0x10)
        #expect(main.first?.file == nil)
    }

    @Test func readsAZipOfDSYMsAsAppStoreConnectShipsThem() throws {
        var builder = ZipArchiveBuilder()
        builder.add("Demo.app.dSYM/Contents/Info.plist", Array("<plist/>".utf8))
        builder.add("Demo.app.dSYM/Contents/Resources/DWARF/Demo", try dwarfBytes("Demo-arm64"))
        builder.add("Demo-x86.app.dSYM/Contents/Resources/DWARF/Demo", try dwarfBytes("Demo-x86_64"), deflate: false)
        let folder = try StoreTestFolder()
        let zip = try folder.write(builder.build(), at: "appDsyms.zip")
        let store = DSYMStore(paths: [zip], loader: loader)
        #expect(Set(store.entries.map(\.slice.uuid)) == [Self.arm64UUID, Self.x86UUID])
        #expect(functions(store.image(uuid: Self.arm64UUID, arch: "arm64"), at: 0x1_0000_404C).last == "compute")
        #expect(
            store.entries.first?.location.description.hasSuffix(
                "appDsyms.zip:Demo.app.dSYM/Contents/Resources/DWARF/Demo"
            ) == true
        )
        // Nothing was extracted beside the archive.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["appDsyms.zip"])
    }

    @Test func garbageTruncatedAndBombsCostAFindingNotTheReport() throws {
        let folder = try StoreTestFolder()
        let real = try dwarfBytes("Demo-arm64")
        // Mach-O magic followed by noise, in a dSYM's place.
        var noise: [UInt8] = [0xCF, 0xFA, 0xED, 0xFE]
        var generator = SeededGenerator(seed: 0x5EED_0016)
        noise += (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let garbage = try folder.write(noise, at: "Garbage.dSYM/Contents/Resources/DWARF/Garbage")
        // The real dSYM cut after its load commands: indexed from its header, broken when opened.
        let truncated = try folder.write(Array(real.prefix(3000)), at: "Cut.dSYM/Contents/Resources/DWARF/Cut")
        // A zip whose DWARF entry inflates 64 MiB of zeros from a few KiB.
        var bomb = ZipArchiveBuilder()
        bomb.add("Bomb.dSYM/Contents/Resources/DWARF/Bomb", [UInt8](repeating: 0, count: 64 << 20))
        let zip = try folder.write(bomb.build(), at: "bomb.zip")
        let limits = DSYMStoreLimits(
            zipExpansion: ExpansionLimit(maxBytes: 256 << 20, maxRatio: 100, floorBytes: 1 << 20)
        )
        let store = DSYMStore(paths: [garbage, truncated, zip], loader: loader, limits: limits)
        let codes = store.findings.map(\.code)
        #expect(codes.contains(.input(.malformedMachO)), "\(store.findings)")
        #expect(codes.contains(.input(.tooLarge)), "\(store.findings)")
        // The report still comes out, unsymbolicated where the dSYM failed, with one diagnostic for the image.
        let report = try CrashReportParser().parse(try fixtureReport("Demo-arm64-ios.crash")).report
        let outcome = ReportSymbolicator(source: store).symbolicate(report)
        #expect(outcome.report.threads[0].frames.first?.image == "Demo")
        #expect(outcome.report.threads[0].frames.first?.symbol == nil)
        #expect(outcome.resolvedFrames == 0)
        let demo = outcome.diagnostics.filter { $0.code == .symbolicateUnreadableDSYM }
        #expect(demo.count == 1)
        #expect(outcome.report.threads.map(\.frames.count) == report.threads.map(\.frames.count))
    }

    @Test func aFolderWithASymbolicLinkLoopIsSearchedOnce() throws {
        let folder = try StoreTestFolder()
        try folder.write(try dwarfBytes("Demo-arm64"), at: "dsyms/Demo.dSYM/Contents/Resources/DWARF/Demo")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/dsyms/loop", withDestinationPath: "..")
        let store = DSYMStore(paths: [folder.path + "/dsyms"], loader: loader)
        #expect(store.entries.count == 1)
        #expect(store.findings.contains { $0.severity == .note })
        #expect(functions(store.image(uuid: Self.arm64UUID, arch: nil), at: 0x1_0000_40C0) == ["main"])
    }

    @Test func theCacheKeepsABoundedNumberOfOpenedImages() throws {
        let entries = [
            DSYMStore.Entry(
                slice: DebugSlice(uuid: Self.arm64UUID, arch: "arm64", textVMAddress: 0x1_0000_0000, size: 1),
                location: .file(RawPath(MachOFixtures.dsym("Demo-arm64")))
            ),
            DSYMStore.Entry(
                slice: DebugSlice(uuid: Self.x86UUID, arch: "x86_64", textVMAddress: 0x1_0000_0000, size: 1),
                location: .file(RawPath(MachOFixtures.dsym("Demo-x86_64")))
            ),
        ]
        let store = DSYMStore(entries: entries, loader: loader, limits: DSYMStoreLimits(openImages: 1))
        for _ in 0..<3 {
            _ = store.image(uuid: Self.arm64UUID, arch: nil)
            _ = store.image(uuid: Self.x86UUID, arch: nil)
        }
        // One slot: each switch reopens.
        #expect(store.openedCount == 6)
        let roomy = DSYMStore(entries: entries, loader: loader, limits: DSYMStoreLimits(openImages: 2))
        for _ in 0..<3 {
            _ = roomy.image(uuid: Self.arm64UUID, arch: nil)
            _ = roomy.image(uuid: Self.x86UUID, arch: nil)
        }
        #expect(roomy.openedCount == 2)
    }

    @Test func pathsThatHoldNothingUsableSaySo() throws {
        let folder = try StoreTestFolder()
        let text = try folder.write(Array("not a dSYM".utf8), at: "notes.txt")
        let store = DSYMStore(paths: [text, folder.path + "/missing"], loader: loader)
        #expect(store.entries.isEmpty)
        #expect(store.findings.contains { $0.code == .dsymNotMachO })
        #expect(store.findings.contains { $0.code == .dsymCannotOpen && $0.severity == .error })
        #expect(store.findings.contains { $0.code == .dsymNoneFound })
    }
}

/// The bytes of a committed fixture report.
func fixtureReport(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: MachOFixtures.folder + "reports/" + name)))
}
