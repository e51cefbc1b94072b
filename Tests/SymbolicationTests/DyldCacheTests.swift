import APMInspectCore
import CrashReportParsing
import Foundation
import PropertyBased
import Testing

@testable import Symbolication

/// System frames named from a dyld shared cache built from the system-library fixtures.
///
/// ``DyldCacheBuilder`` puts libsystem_kernel's text in the main file, UIKitCore's in a subcache, global symbols in the
/// shared `__LINKEDIT`, local ones in the `.symbols` file. A cache must name every frame as the extracted libraries
/// of a DeviceSupport folder name it.
@Suite struct DyldCacheTests {
    private static func images(legacy: Bool = false) throws -> [DyldCacheBuilder.Image] {
        [
            DyldCacheBuilder.Image(bytes: try SystemFixtures.bytes("libsystem_kernel.dylib")),
            DyldCacheBuilder.Image(bytes: try SystemFixtures.bytes("UIKitCore"), inSubCache: !legacy),
        ]
    }

    private func cacheStore(
        _ space: StoreTestFolder,
        legacy: Bool = false,
        edit: (inout DyldCacheBuilder.Built) -> Void = { _ in }
    )
        throws -> (store: DSYMStore, read: Int, reused: Int)
    {
        var built = DyldCacheBuilder(images: try Self.images(legacy: legacy), legacy: legacy).build()
        edit(&built)
        try built.write(to: space.path + "/ipsw/dyld")
        return DSYMStore.indexed(
            dsymPaths: [MachOFixtures.folder + "Demo-arm64.dSYM"],
            sourceFolders: [space.path + "/ipsw"],
            cacheDirectory: space.path + "/cache"
        )
    }

    @Test(arguments: ["System-arm64e-ios.crash", "System-arm64e-ios.ips"], [false, true])
    func aCacheNamesSystemFramesAsTheExtractedLibrariesDo(name: String, legacy: Bool) throws {
        let space = try StoreTestFolder()
        let (store, _, _) = try cacheStore(space, legacy: legacy)
        #expect(store.findings.isEmpty, "\(store.findings)")
        #expect(
            Set(store.entries.map(\.slice.uuid)).isSuperset(of: [SystemFixtures.kernelUUID, SystemFixtures.uikitUUID])
        )
        let report = try SystemFixtures.bytes("reports/" + name)
        let result = try ReportRewriter.rewrite(report, with: ReportSymbolicator(source: store))
        func describe(_ frame: CrashReport.Frame) -> String {
            "\(frame.image ?? "?") \(frame.symbol ?? "-") + \(frame.symbolOffset.map { String($0) } ?? "-")"
        }
        // Local symbols (kernel_trap_number, the Objective-C methods) come from the .symbols file (the main file in
        // the legacy layout), global ones from the shared __LINKEDIT.
        #expect(
            result.report.threads[0].frames.map(describe) == [
                "libsystem_kernel.dylib kernel_trap_number + 24",
                "libsystem_kernel.dylib __pthread_kill + 20",
                "UIKitCore -[UIApplication sendEvent:] + 16",
                "UIKitCore UIApplicationMain + 48",
                "Demo main + 28",
                "dyld start + 1860",
            ]
        )
        // The whole rewritten report is the one the DeviceSupport folder gives (reviewed, committed).
        let expected = try SystemFixtures.bytes("reports/expected/" + name)
        #expect(String(decoding: result.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        // libdispatch is in no source: its UUID stays unnamed, a note.
        let missing = result.diagnostics.filter { $0.code == .symbolicateMissingDSYM }
        #expect(missing.count == 1 && missing.allSatisfy { $0.message.contains("libdispatch.dylib") })
    }

    @Test func everyAddressOfAnImageIsNamedAsLLVMNmNamesTheLibrary() throws {
        let space = try StoreTestFolder()
        let (store, _, _) = try cacheStore(space)
        for (name, uuid) in [
            ("libsystem_kernel.dylib", SystemFixtures.kernelUUID), ("UIKitCore", SystemFixtures.uikitUUID),
        ] {
            guard case .found(let image) = store.image(uuid: uuid, arch: "arm64e") else {
                Issue.record("\(name) not found in the cache")
                continue
            }
            // The library's own symbol table, read as a DeviceSupport folder reads it, answers the same at every
            // offset (nothing past the end of __text, where llvm-nm would still name the last symbol).
            let library = try MachOFile(bytes: try SystemFixtures.bytes(name)).slices[0]
            let own = try library.symbolTable()
            let text = try #require(library.textVMAddress)
            #expect(image.origin.contains("dyld_shared_cache_arm64e:"))
            var named = 0
            for offset in stride(from: UInt64(0), to: 0x8000, by: 4) {
                let names = image.resolver.locations(at: image.textVMAddress + offset).map(\.symbol)
                let expected = own.locations(at: text + offset).map(\.symbol)
                #expect(names == expected, "\(name) + 0x\(String(offset, radix: 16))")
                named += names.isEmpty ? 0 : 1
            }
            #expect(named > 10)
        }
        #expect(store.image(uuid: "00112233445566778899aabbccddeeff", arch: "arm64e").isMissing)
    }

    @Test func theIndexIsKeptAndAGivenCacheFileWorksAsTheFolder() throws {
        let space = try StoreTestFolder()
        let first = try cacheStore(space)
        // Three files (the main cache, its subcache and .symbols file), each read once.
        #expect(first.read == 3 && first.reused == 0)
        let second = DSYMStore.indexed(
            dsymPaths: [],
            sourceFolders: [space.path + "/ipsw"],
            cacheDirectory: space.path + "/cache"
        )
        #expect(second.read == 0 && second.reused == 3)
        #expect(
            second.store.entries.map(\.slice) == first.store.entries.filter { $0.slice.arch == "arm64e" }.map(\.slice)
        )
        #expect(second.store.entries.allSatisfy { if case .dyldCacheImage = $0.location { true } else { false } })
        guard case .found = second.store.image(uuid: SystemFixtures.uikitUUID, arch: nil) else {
            Issue.record("the cached index does not open the image")
            return
        }
        // The main file given directly (as --dsym or --symbols FILE) is indexed the same way; a subcache given alone
        // is said.
        let direct = DSYMStore(
            paths: [space.path + "/ipsw/dyld/dyld_shared_cache_arm64e"],
            loader: MachODebugImageLoader()
        )
        #expect(direct.entries.map(\.slice) == second.store.entries.map(\.slice))
        let alone = DSYMStore(
            paths: [space.path + "/ipsw/dyld/dyld_shared_cache_arm64e.01"],
            loader: MachODebugImageLoader()
        )
        #expect(alone.findings.map(\.code).contains(.symbolsDyldCacheNoImages))
    }

    @Test func withoutTheSymbolsFileGlobalSymbolsStillNameFrames() throws {
        let space = try StoreTestFolder()
        let (store, _, _) = try cacheStore(space) { $0.symbols = nil }
        #expect(store.findings.map(\.code) == [.symbolsDyldCacheMissingFile], "\(store.findings)")
        guard case .found(let image) = store.image(uuid: SystemFixtures.uikitUUID, arch: "arm64e") else {
            Issue.record("UIKitCore not found")
            return
        }
        // -[UIApplication sendEvent:] is local: without it, its address falls to the exported symbol before it.
        #expect(image.resolver.locations(at: image.textVMAddress + 0x405C).map(\.symbol) == ["UIApplicationMain"])
    }

    @Test func anImageInAMissingSubcacheIsUnreadableAndTheOthersAreNamed() throws {
        let space = try StoreTestFolder()
        let (store, _, _) = try cacheStore(space) { $0.subCache = nil }
        #expect(store.findings.map(\.code) == [.symbolsDyldCacheMissingFile], "\(store.findings)")
        guard case .failed(let error) = store.image(uuid: SystemFixtures.uikitUUID, arch: "arm64e") else {
            Issue.record("UIKitCore's text is in the missing subcache")
            return
        }
        #expect(error.message.contains("not in the cache's mappings"))
        guard case .found = store.image(uuid: SystemFixtures.kernelUUID, arch: "arm64e") else {
            Issue.record("libsystem_kernel is in the main file")
            return
        }
    }

    /// Every field of the header set to hostile values, one at a time, and the file cut at every header offset:
    /// indexing and opening end in a finding or a lookup failure, never a trap, and never name a frame wrongly.
    @Test func hostileHeadersGiveADiagnosticNotATrap() throws {
        let built = DyldCacheBuilder(images: try Self.images()).build()
        let space = try StoreTestFolder()
        for cut in stride(from: 0, to: 0x240, by: 4) {
            var damaged = built
            damaged.main = Array(built.main.prefix(cut))
            let store = try index(damaged, in: space, name: "cut\(cut)")
            #expect(!store.findings.isEmpty || store.entries.isEmpty)
            if cut >= 16 {
                #expect(store.findings.contains { $0.code == .symbolsDyldCacheTruncated }, "cut at \(cut)")
            }
        }
        for field in stride(from: 0x10, to: 0x1C8, by: 4) {
            for value: UInt32 in [0xFFFF_FFFF, 0x7FFF_FFFF, 0x10, 0] {
                var damaged = built
                DyldCacheBuilder.put32(value, &damaged.main, field)
                let store = try index(damaged, in: space, name: "f\(field)v\(value)")
                exercise(store)
            }
        }
    }

    private static let positions = Gen.int(in: 0...0xFFFF).array(of: 1...8)

    /// Random bytes of the built cache's files changed: whatever they say, indexing and opening end without a trap.
    @Test func aMutatedCacheNeverTraps() async throws {
        let built = DyldCacheBuilder(images: try Self.images()).build()
        let space = try StoreTestFolder()
        nonisolated(unsafe) var round = 0
        await propertyCheck(count: 60, input: Gen.int(in: 0...3), Self.positions) { file, positions in
            var damaged = built
            for position in positions {
                switch file {
                case 0: damaged.main[position % damaged.main.count] ^= UInt8(truncatingIfNeeded: position >> 3) | 1
                case 1:
                    if var bytes = damaged.subCache {
                        bytes[position % bytes.count] ^= 0xFF
                        damaged.subCache = bytes
                    }
                case 2:
                    if var bytes = damaged.symbols {
                        bytes[position % bytes.count] ^= UInt8(truncatingIfNeeded: position) | 1
                        damaged.symbols = bytes
                    }
                default: damaged.main[position % 0x400] = UInt8(truncatingIfNeeded: position)
                }
            }
            round += 1
            guard let store = try? index(damaged, in: space, name: "m\(round)") else { return }
            exercise(store)
        }
    }

    /// Writes a cache of `APM_DYLD_BENCH_IMAGES` images (2,000 when unset; copies of libsystem_kernel with UUIDs of
    /// their own and 500 synthetic local symbols each, then the two fixtures) into `APM_DYLD_BENCH_DIR`, for the
    /// measurement in docs/symbolication.md; checks that the fixtures' frames are still named from it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["APM_DYLD_BENCH_DIR"] != nil))
    func writeAScaledCacheForMeasurement() throws {
        let environment = ProcessInfo.processInfo.environment
        let folder = try #require(environment["APM_DYLD_BENCH_DIR"])
        let count = environment["APM_DYLD_BENCH_IMAGES"].flatMap { Int($0) } ?? 2000
        let kernel = try SystemFixtures.bytes("libsystem_kernel.dylib")
        var images: [DyldCacheBuilder.Image] = []
        for index in 0..<count {
            var uuid = [UInt8](repeating: 0x5A, count: 16)
            uuid[0] = 0x10
            uuid[1] = UInt8(truncatingIfNeeded: index >> 8)
            uuid[2] = UInt8(truncatingIfNeeded: index)
            images.append(
                DyldCacheBuilder.Image(bytes: kernel, inSubCache: index % 2 == 1, uuid: uuid, extraLocals: 500)
            )
        }
        images += try Self.images()
        let path = try DyldCacheBuilder(images: images).build().write(to: folder)
        let store = DSYMStore(paths: [path], loader: MachODebugImageLoader())
        #expect(store.entries.count == count + 2 && store.findings.isEmpty)
        let report = try SystemFixtures.bytes("reports/System-arm64e-ios.crash")
        let result = try ReportRewriter.rewrite(report, with: ReportSymbolicator(source: store))
        #expect(result.report.threads[0].frames.first?.symbol == "kernel_trap_number")
    }

    private func index(_ built: DyldCacheBuilder.Built, in space: StoreTestFolder, name: String) throws -> DSYMStore {
        let path = try built.write(to: space.path + "/" + name)
        return DSYMStore(paths: [path], loader: MachODebugImageLoader())
    }

    /// Opens every image indexed and resolves addresses all over its text.
    private func exercise(_ store: DSYMStore) {
        for entry in store.entries {
            guard case .found(let image) = store.image(uuid: entry.slice.uuid, arch: entry.slice.arch) else { continue }
            for offset in stride(from: UInt64(0), to: 0x8000, by: 0x40) {
                _ = image.resolver.locations(at: image.textVMAddress &+ offset)
            }
        }
    }
}

extension SymbolLookup {
    var isMissing: Bool {
        if case .missing = self { return true }
        return false
    }
}
