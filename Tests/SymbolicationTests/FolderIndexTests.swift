import APMInspectCore
import Foundation
import FuzzReplaySupport
import Testing

@testable import Symbolication

/// `--symbols DIR`: the folder's files are read once, their slices kept in the symbol cache, and a later run that
/// finds them unchanged only walks the folder; the store it gives is the one `--dsym DIR` gives.
@Suite struct FolderIndexTests {
    private func dwarfBytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: MachOFixtures.dsym(name))))
    }

    /// A folder of two dSYMs, a fat binary inside an app bundle, and a text file.
    private func symbolFolder(_ space: StoreTestFolder) throws -> String {
        try space.write(
            try dwarfBytes("Demo-arm64"),
            at: "symbols/a/Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64"
        )
        try space.write(
            try dwarfBytes("Demo-x86_64"),
            at: "symbols/b/Demo-x86_64.dSYM/Contents/Resources/DWARF/Demo-x86_64"
        )
        try space.write(Array("build 1234\n".utf8), at: "symbols/notes.txt")
        return space.path + "/symbols"
    }

    private func describe(_ store: DSYMStore) -> [String] {
        store.entries.map { "\($0.slice.uuid) \($0.slice.arch) \($0.slice.textVMAddress) \($0.location)" }
    }

    @Test func aSecondRunReusesTheIndexAndFindsTheSameSlices() throws {
        let space = try StoreTestFolder()
        let folder = try symbolFolder(space)
        let cache = space.path + "/cache"
        let first = DSYMStore.indexed(dsymPaths: [], sourceFolders: [folder], cacheDirectory: cache)
        #expect(first.read == 3 && first.reused == 0)
        #expect(first.store.findings.isEmpty, "\(first.store.findings)")
        let second = DSYMStore.indexed(dsymPaths: [], sourceFolders: [folder], cacheDirectory: cache)
        #expect(second.read == 0 && second.reused == 3)
        #expect(describe(second.store) == describe(first.store))
        // The same slices, in the same order, as the folder given to --dsym.
        let direct = DSYMStore(paths: [folder], loader: MachODebugImageLoader())
        #expect(describe(second.store) == describe(direct))
        // And they open: the image behind a reused entry resolves.
        guard case .found = second.store.image(uuid: StoreTests.arm64UUID, arch: "arm64") else {
            Issue.record("the reused arm64 entry did not open")
            return
        }
    }

    @Test func aChangedOrNewFileIsReadAgainAndAGoneOneForgotten() throws {
        let space = try StoreTestFolder()
        let folder = try symbolFolder(space)
        let cache = space.path + "/cache"
        _ = DSYMStore.indexed(dsymPaths: [], sourceFolders: [folder], cacheDirectory: cache)
        // The x86_64 dSYM replaced by the fat one under the same name (a new inode, size and time).
        let replaced = folder + "/b/Demo-x86_64.dSYM/Contents/Resources/DWARF/Demo-x86_64"
        try FileManager.default.removeItem(atPath: replaced)
        try space.write(
            try dwarfBytes("Demo-fat"),
            at: "symbols/b/Demo-x86_64.dSYM/Contents/Resources/DWARF/Demo-x86_64"
        )
        try FileManager.default.removeItem(atPath: folder + "/notes.txt")
        let again = DSYMStore.indexed(dsymPaths: [], sourceFolders: [folder], cacheDirectory: cache)
        #expect(again.read == 1 && again.reused == 1)
        #expect(again.store.entries.map(\.slice.arch).sorted() == ["arm64", "x86_64"])
        let stored = try String(contentsOfFile: DSYMFolderIndex(folder: RawPath(folder), cacheDirectory: cache).storage)
        #expect(!stored.contains("notes.txt"))
    }

    @Test func aDamagedIndexIsIgnoredAndRebuilt() throws {
        let space = try StoreTestFolder()
        let folder = try symbolFolder(space)
        let cache = space.path + "/cache"
        _ = DSYMStore.indexed(dsymPaths: [], sourceFolders: [folder], cacheDirectory: cache)
        let storage = DSYMFolderIndex(folder: RawPath(folder), cacheDirectory: cache).storage
        for damage in ["", "{\"version\":1,\"folder\":", "{\"version\":99,\"folder\":\"\(folder)\",\"files\":{}}"] {
            try Data(damage.utf8).write(to: URL(fileURLWithPath: storage))
            let rebuilt = DSYMStore.indexed(dsymPaths: [], sourceFolders: [folder], cacheDirectory: cache)
            #expect(rebuilt.read == 3 && rebuilt.reused == 0, "\(damage)")
            #expect(rebuilt.store.entries.count == 2)
        }
    }

    @Test func aCacheThatCannotBeWrittenCostsAFindingNotTheResult() throws {
        let space = try StoreTestFolder()
        let folder = try symbolFolder(space)
        // A file where the cache folder should be.
        let cache = try space.write(Array("x".utf8), at: "cache-is-a-file")
        let result = DSYMStore.indexed(dsymPaths: [], sourceFolders: [folder], cacheDirectory: cache)
        #expect(result.store.entries.count == 2)
        #expect(result.store.findings.map(\.code) == [.symbolCacheUnwritable])
        #expect(result.store.findings.first?.severity == .warning)
    }

    @Test func aDSYMGivenTwoWaysIsOneSliceAndTheDSYMWinsOverItsBinary() throws {
        let space = try StoreTestFolder()
        let folder = space.path + "/app"
        let binary = try space.write(
            Array(try Data(contentsOf: URL(fileURLWithPath: MachOFixtures.binary("Demo-arm64")))),
            at: "app/Demo-arm64"
        )
        let dsym = try space.write(
            try dwarfBytes("Demo-arm64"),
            at: "dsyms/Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64"
        )
        // The binary comes first (from --dsym), the dSYM from a folder source: the dSYM is used.
        let result = DSYMStore.indexed(
            dsymPaths: [binary],
            sourceFolders: [folder, space.path + "/dsyms"],
            cacheDirectory: nil
        )
        #expect(result.store.entries.count == 1)
        #expect(result.store.entries.first?.location == .file(RawPath(dsym)))
    }
}
