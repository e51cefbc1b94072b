import APMInspectCore
import Foundation
import Testing

@testable import PowerLogReading

/// The folder search of `energy` walks like `scan`: nothing is skipped in silence, names keep their bytes.
@Suite struct PowerLogDiscoveryTests {
    private func makeFile(_ path: RawPath) throws {
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        try #require(fd >= 0)
        close(fd)
    }

    @Test func aSubfolderThatCannotBeListedIsAnErrorFinding() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let root = RawPath(folder)
        let locked = root.appending(Array("locked".utf8))
        try FileManager.default.createDirectory(atPath: folder + "/locked", withIntermediateDirectories: true)
        try makeFile(locked.appending(Array("hidden.PLSQL".utf8)))
        try makeFile(root.appending(Array("seen.PLSQL".utf8)))
        // Root lists any folder: the lister stands in for EACCES (.ci/steps/unprivileged.sh runs the real case).
        let walker = DirectoryWalker { path in
            path == locked ? .failure(.init(EACCES)) : DirectoryWalker.readDirectory(path)
        }
        let discovery = PowerLogReader.discover(in: root, walker: walker)
        #expect(discovery.files == [root.appending(Array("seen.PLSQL".utf8))])
        #expect(discovery.findings.map(\.path) == [locked])
        #expect(discovery.findings.map(\.code) == [.walkCannotList])
        #expect(discovery.findings.map(\.isError) == [true])
    }

    @Test func namesThatAreNotUTF8AreFoundWithTheirBytes() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let root = RawPath(folder)
        // Latin-1 "é" in the name, and an upper-case suffix.
        let latin1 = root.appending(Array("powerlog_caf".utf8) + [0xE9] + Array(".PlSqL.GZ".utf8))
        try makeFile(latin1)
        try makeFile(root.appending([0xFF] + Array(".txt".utf8)))
        try makeFile(root.appending(Array("._".utf8) + [0xFF] + Array(".EPSQL".utf8)))
        let discovery = PowerLogReader.discover(in: root)
        #expect(discovery.findings.isEmpty)
        #expect(discovery.files == [latin1])
        #expect(discovery.files.first?.display == folder + "/powerlog_caf\\xE9.PlSqL.GZ")
    }

    @Test func powerLogNamesByBytes() {
        #expect(PowerLogReader.isPowerLogName(Array("a.bgsql".utf8)))
        #expect(PowerLogReader.isPowerLogName(Array(".PLSQL".utf8)))
        #expect(!PowerLogReader.isPowerLogName(Array("a.PLSQL-wal".utf8)))
        #expect(!PowerLogReader.isPowerLogName(Array("sql".utf8)))
        #expect(!PowerLogReader.isPowerLogName([]))
    }
}
