import Foundation
import SymbolServerTestSupport
import Testing

/// `--symbols http://…` through the built binary against a real local server: the frames `--dsym` gives, the
/// download kept for the next process, two processes sharing one cache, and `report` naming frames alike.
@Suite("symbol servers through the command")
struct SymbolServerCommandTests {
    static let report = "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.crash"
    static let dsym = "Tests/SymbolicationTests/Fixtures/Demo-fat.dSYM"

    /// Starts `arguments` without waiting: its process and its output pipe.
    private func start(_ binary: String, _ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = BuiltCommandTests.root
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, out)
    }

    @Test("symbolicate --symbols http://… and lldb+http://… write what --dsym writes; the next run needs no server")
    func symbolicate() throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        let binary = try BuiltCommandTests.binary()
        let direct = try BuiltCommandTests.run(binary, ["symbolicate", Self.report, "--dsym", Self.dsym])
        #expect(direct.stdout.contains("compute + 76 (main.c:16)"))
        for source in [server.base + "/unified", "lldb+" + server.base + "/lldb"] {
            let cache = server.folder.appendingPathComponent("cache-\(source.count)").path
            let run = try BuiltCommandTests.run(
                binary,
                ["symbolicate", Self.report, "--symbols", source, "--symbol-cache", cache]
            )
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == direct.stdout)
            #expect(!run.stderr.contains("error"), "\(run.stderr)")
        }
        server.stop()
        let again = try BuiltCommandTests.run(
            binary,
            [
                "symbolicate", Self.report, "--symbols", server.base + "/unified", "--symbol-cache",
                server.folder.appendingPathComponent("cache-\((server.base + "/unified").count)").path,
            ]
        )
        #expect(again.stdout == direct.stdout, "\(again.stderr)")
    }

    @Test("two processes fetching into one cache both symbolicate and leave one whole file, no partial one")
    func racingProcesses() throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        let binary = try BuiltCommandTests.binary()
        let direct = try BuiltCommandTests.run(binary, ["symbolicate", Self.report, "--dsym", Self.dsym])
        let cache = server.folder.appendingPathComponent("shared-cache").path
        let arguments = ["symbolicate", Self.report, "--symbols", server.base + "/unified", "--symbol-cache", cache]
        let runs = try (0..<2).map { _ in try start(binary, arguments) }
        for (process, out) in runs {
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(text == direct.stdout)
        }
        let downloads = try FileManager.default.contentsOfDirectory(atPath: cache + "/downloads")
        #expect(downloads.contains(LocalSymbolServer.arm64UUID))
        #expect(!downloads.contains { $0.hasPrefix(".partial-") }, "\(downloads)")
        let kept = try Data(contentsOf: URL(fileURLWithPath: cache + "/downloads/" + LocalSymbolServer.arm64UUID))
        #expect(kept == (try Data(contentsOf: LocalSymbolServer.fatDWARF)))
    }

    @Test("--symbol-cache-size bounds the downloads: past it the file read longest ago goes, never the new one")
    func cacheSize() throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        let binary = try BuiltCommandTests.binary()
        let cache = server.folder.appendingPathComponent("small-cache").path
        let size = try Data(contentsOf: LocalSymbolServer.fatDWARF).count
        let downloads = cache + "/downloads"
        for (report, uuid) in [
            (Self.report, LocalSymbolServer.arm64UUID),
            ("Tests/SymbolicationTests/Fixtures/reports/Demo-x86_64-macos.crash", LocalSymbolServer.x86UUID),
        ] {
            let run = try BuiltCommandTests.run(
                binary,
                [
                    "symbolicate", report, "--symbols", server.base + "/unified", "--symbol-cache", cache,
                    "--symbol-cache-size", "\(size + size / 2)",
                ]
            )
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("(main.c:"), "\(run.stdout)")
            // Room for one file and a half: the one just fetched stays, the other goes.
            let files = try FileManager.default.contentsOfDirectory(atPath: downloads).filter { $0.count == 32 }
            #expect(files == [uuid])
        }
        let refused = try BuiltCommandTests.run(binary, ["symbolicate", Self.report, "--symbol-cache-size", "10X"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains(#"--symbol-cache-size: "10X" is not a size"#))
    }

    @Test("report --symbols names crash groups as report --dsym does")
    func report() throws {
        let server = try LocalSymbolServer()
        defer { server.remove() }
        let binary = try BuiltCommandTests.binary()
        let environment = ["SOURCE_DATE_EPOCH": "0", "APM_INSPECT_SYMBOLS": ""]
        let plain = try BuiltCommandTests.run(binary, ["report", Self.report, "-f", "json"], environment: environment)
        let direct = try BuiltCommandTests.run(
            binary,
            ["report", Self.report, "-f", "json", "--dsym", Self.dsym],
            environment: environment
        )
        let viaServer = try BuiltCommandTests.run(
            binary,
            [
                "report", Self.report, "-f", "json", "--symbols", server.base + "/unified", "--symbol-cache",
                server.folder.appendingPathComponent("cache").path,
            ],
            environment: environment
        )
        #expect(viaServer.status == 0, "\(viaServer.stderr)")
        #expect(viaServer.stdout == direct.stdout)
        #expect(direct.stdout.contains("\"topFrame\" : \"Demo`scale\""))
        #expect(plain.stdout.contains("\"topFrame\" : \"Demo+0x404c\""))
    }

    @Test("a server that cannot be reached is said once, and the run goes on with what the rest gave")
    func unreachable() throws {
        let binary = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let direct = try BuiltCommandTests.run(binary, ["symbolicate", Self.report, "--dsym", Self.dsym])
        // Port 9 on the loopback: nothing listens, the connection is refused at once.
        let run = try BuiltCommandTests.run(
            binary,
            [
                "symbolicate", Self.report, "--dsym", Self.dsym, "--symbols", "https://user:s3cret@127.0.0.1:9/base",
                "--symbol-cache", folder.path,
            ]
        )
        #expect(run.status == 0)
        #expect(run.stdout == direct.stdout)
        let failures = run.stderr.split(separator: "\n").filter { $0.contains("cannot download") }
        #expect(failures.count == 1, "\(run.stderr)")
        #expect(!run.stderr.contains("s3cret"))
    }

    @Test("a symbol server alone: no warning about local files nobody named")
    func serverAlone() throws {
        let binary = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try BuiltCommandTests.run(
            binary,
            ["symbolicate", Self.report, "--symbols", "http://127.0.0.1:9/base", "--symbol-cache", folder.path]
        )
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("cannot download"), "\(run.stderr)")
        #expect(!run.stderr.contains("no dSYM or Mach-O file found"), "\(run.stderr)")
    }
}
