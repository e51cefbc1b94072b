import APMInspectCore
import Foundation
import SymbolServerTestSupport
import Symbolication
import Synchronization
import Testing

@testable import SymbolServers

/// Fetching dSYMs from a real HTTP server on 127.0.0.1 (python3, `symbol_server.py`): both layouts, what a server
/// lacks, bounds on size and time, and the cache that a second run reuses.
@Suite("symbol servers: downloads over HTTP, the cache, bounds")
struct SymbolFetcherTests {
    static let report = LocalSymbolServer.root.appendingPathComponent(
        "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.crash"
    )

    /// Diagnostics a fetcher reported.
    final class Said: Sendable {
        let list = Mutex<[Diagnostic]>([])
        var all: [Diagnostic] { list.withLock { $0 } }
        func take(_ diagnostic: Diagnostic) { list.withLock { $0.append(diagnostic) } }
    }

    private func fetcher(
        _ sources: [String],
        cache: URL,
        limits: SymbolDownloadLimits = SymbolDownloadLimits(),
        said: Said = Said()
    ) throws -> SymbolFetcher {
        SymbolFetcher(
            servers: try sources.map { try SymbolServer.parse($0).get() },
            cacheDirectory: cache.path,
            limits: limits,
            environment: [:],
            report: { said.take($0) }
        )
    }

    /// The fixture report symbolicated through `source`.
    private func symbolicated(with source: any SymbolSource) throws -> String {
        let bytes = try [UInt8](Data(contentsOf: Self.report))
        let result = try ReportRewriter.rewrite(bytes, with: ReportSymbolicator(source: source))
        return String(decoding: result.bytes, as: UTF8.self)
    }

    private func local() throws -> String {
        try symbolicated(with: DSYMStore(paths: [LocalSymbolServer.fatDWARF.path], loader: MachODebugImageLoader()))
    }

    @Test("unified and lldb layouts give the frames the local dSYM gives", arguments: ["unified", "lldb"])
    func layouts(layout: String) throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        let prefix = layout == "lldb" ? "lldb+" : ""
        let fetcher = try fetcher(
            [prefix + server.base + "/" + layout],
            cache: server.folder.appendingPathComponent("cache")
        )
        defer { fetcher.shutdown() }
        let source = NetworkSymbolSource(local: nil, fetcher: fetcher, loader: MachODebugImageLoader())
        let text = try symbolicated(with: source)
        #expect(text == (try local()))
        #expect(text.contains("compute + 76 (main.c:16)"))
        let key = try #require(SymbolServerLayout(rawValue: layout)?.key(forUUID: LocalSymbolServer.arm64UUID))
        #expect(server.requests.contains("/\(layout)/\(key)"), "\(server.requests)")
    }

    @Test("a UUID no server has is asked once per run, however often it is wanted, and is no error")
    func missingAskedOnce() throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        let said = Said()
        let fetcher = try fetcher(
            [server.base + "/unified"],
            cache: server.folder.appendingPathComponent("c"),
            said: said
        )
        defer { fetcher.shutdown() }
        let absent = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
        for _ in 0..<3 { #expect(fetcher.file(forUUID: absent) == nil) }
        #expect(server.requests == ["/unified/9f/8e7d6c5b4a39281706f5e4d3c2b1a0/debuginfo"])
        #expect(said.all.isEmpty)
    }

    @Test("a file larger than the limit is abandoned, said with its code, and nothing of it is kept")
    func tooLarge() throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        var limits = SymbolDownloadLimits()
        limits.maxBytes = 1000
        let said = Said()
        let cache = server.folder.appendingPathComponent("c")
        let fetcher = try fetcher([server.base + "/unified"], cache: cache, limits: limits, said: said)
        defer { fetcher.shutdown() }
        #expect(fetcher.file(forUUID: LocalSymbolServer.arm64UUID) == nil)
        #expect(said.all.map(\.code) == [.symbolsDownloadTooLarge])
        #expect(said.all.first?.message.contains("larger than 1000 bytes") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path + "/downloads").isEmpty)
    }

    @Test("a server that never answers costs one timeout, is said, and the next server is asked")
    func timeout() throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        var limits = SymbolDownloadLimits()
        limits.readSeconds = 1
        limits.totalSeconds = 2
        let said = Said()
        let fetcher = try fetcher(
            [server.base + "/hang", server.base + "/unified"],
            cache: server.folder.appendingPathComponent("c"),
            limits: limits,
            said: said
        )
        defer { fetcher.shutdown() }
        #expect(fetcher.file(forUUID: LocalSymbolServer.arm64UUID) != nil)
        #expect(fetcher.file(forUUID: LocalSymbolServer.x86UUID) != nil)
        #expect(said.all.map(\.code) == [.symbolsDownloadFailed], "\(said.all)")
        #expect(said.all.first?.message.contains("is not asked again in this run") == true)
        #expect(server.requests.filter { $0.hasPrefix("/hang/") }.count == 1)
    }

    @Test("a server error is said, and nothing is kept")
    func serverErrors() throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        let said = Said()
        let cache = server.folder.appendingPathComponent("c")
        let fetcher = try fetcher([server.base + "/error/unified"], cache: cache, said: said)
        #expect(fetcher.file(forUUID: LocalSymbolServer.arm64UUID) == nil)
        fetcher.shutdown()
        #expect(said.all.map(\.code) == [.symbolsDownloadFailed], "\(said.all)")
        #expect(said.all.first?.message.contains("the server answered 503") == true, "\(said.all)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path + "/downloads").isEmpty)
    }

    @Test("a body cut short is resumed with a Range request for the rest, and the file is whole")
    func cutShortIsResumed() throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        let said = Said()
        let cache = server.folder.appendingPathComponent("c")
        let fetcher = try fetcher([server.base + "/short/unified"], cache: cache, said: said)
        let path = try #require(fetcher.file(forUUID: LocalSymbolServer.arm64UUID))
        fetcher.shutdown()
        #expect(
            FileManager.default.contents(atPath: path)
                == FileManager.default.contents(atPath: LocalSymbolServer.fatDWARF.path)
        )
        #expect(said.all.map(\.code) == [.symbolsDownloadResumed], "\(said.all)")
        let size = try #require(FileManager.default.contents(atPath: LocalSymbolServer.fatDWARF.path)?.count)
        let asked = server.requests.filter { $0.hasPrefix("/short/") }
        #expect(asked.count == 2)
        #expect(asked.last?.hasSuffix(" bytes=\(size / 2)-") == true, "\(asked)")
        // Only the finished file is left: no resumable bytes, no validator.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.path + "/downloads") == [
                LocalSymbolServer.arm64UUID
            ]
        )
    }

    @Test("bytes a run could not finish are kept, and the next run asks only for the rest")
    func resumedAcrossRuns() throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        let flaky = server.folder.appendingPathComponent("served/flaky-on")
        FileManager.default.createFile(atPath: flaky.path, contents: Data())
        let cache = server.folder.appendingPathComponent("c")
        let first = Said()
        let cutting = try fetcher([server.base + "/flaky/unified"], cache: cache, said: first)
        #expect(cutting.file(forUUID: LocalSymbolServer.arm64UUID) == nil)
        cutting.shutdown()
        #expect(first.all.map(\.code) == [.symbolsDownloadFailed], "\(first.all)")
        #expect(first.all.first?.message.contains("bytes are kept and the next run resumes from them") == true)
        let size = try #require(FileManager.default.contents(atPath: LocalSymbolServer.fatDWARF.path)?.count)
        // Three requests, each bringing half of what was left.
        let held = size / 2 + (size - size / 2) / 2 + (size - size / 2 - (size - size / 2) / 2) / 2
        #expect(server.requests.filter { $0.hasPrefix("/flaky/") }.count == SymbolFetcher.maxAttempts)
        try FileManager.default.removeItem(at: flaky)
        let second = Said()
        let resuming = try fetcher([server.base + "/flaky/unified"], cache: cache, said: second)
        let path = try #require(resuming.file(forUUID: LocalSymbolServer.arm64UUID))
        resuming.shutdown()
        #expect(
            FileManager.default.contents(atPath: path)
                == FileManager.default.contents(atPath: LocalSymbolServer.fatDWARF.path)
        )
        #expect(second.all.map(\.code) == [.symbolsDownloadResumed], "\(second.all)")
        #expect(second.all.first?.message.contains("\(held) bytes kept from an earlier run") == true, "\(second.all)")
        #expect(server.requests.last?.hasSuffix(" bytes=\(held)-") == true, "\(server.requests)")
    }

    @Test("what one run downloaded, the next reuses with the server gone")
    func cacheReuse() throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        let cache = server.folder.appendingPathComponent("cache")
        let first = try fetcher([server.base + "/unified"], cache: cache)
        let firstText = try symbolicated(
            with: NetworkSymbolSource(local: nil, fetcher: first, loader: MachODebugImageLoader())
        )
        first.shutdown()
        server.stop()
        let said = Said()
        let second = try fetcher([server.base + "/unified"], cache: cache, said: said)
        defer { second.shutdown() }
        let secondText = try symbolicated(
            with: NetworkSymbolSource(local: nil, fetcher: second, loader: MachODebugImageLoader())
        )
        #expect(secondText == firstText)
        #expect(secondText.contains("compute + 76 (main.c:16)"))
        #expect(
            FileManager.default.fileExists(atPath: cache.path + "/downloads/" + LocalSymbolServer.arm64UUID)
        )
    }

    @Test("the cache keeps to its size: the file read longest ago goes first")
    func eviction() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("symcache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = try #require(SymbolDownloadCache(directory: folder.path, limitBytes: 250, missingSeconds: 60))
        var stored: [String] = []
        for (index, uuid) in ["a", "b", "c"].map({ String(repeating: $0, count: 32) }).enumerated() {
            let (path, descriptor) = try #require(cache.makeTemporaryFile())
            let bytes = [UInt8](repeating: UInt8(index), count: 100)
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, 100) }
            close(descriptor)
            Thread.sleep(forTimeInterval: 1.1)
            if index == 2 {
                _ = cache.file(forUUID: stored[0])  // a is read again: b is now the one read longest ago
                Thread.sleep(forTimeInterval: 1.1)
            }
            stored.append(uuid)
            #expect(cache.store(temporary: path, uuid: uuid) != nil)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/downloads").sorted()
        #expect(left == [stored[0], stored[2]])
    }
}
