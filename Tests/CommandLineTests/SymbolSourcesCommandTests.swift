import Foundation
import Testing

/// `--symbols` and `APM_INSPECT_SYMBOLS` through the command: the same frames as `--dsym` gives, the folder's index
/// kept in the cache given (never beside the evidence), sources that cannot be used said and skipped.
@Suite("symbol sources: --symbols, APM_INSPECT_SYMBOLS, --symbol-cache")
struct SymbolSourcesCommandTests {
    static let report = "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.crash"
    static let ips = "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.ips"
    static let dsym = "Tests/SymbolicationTests/Fixtures/Demo-arm64.dSYM"

    /// A folder holding a copy of the arm64 dSYM under another layout.
    private func symbolFolder(in folder: URL) throws -> String {
        let target = folder.appendingPathComponent("symbols/release-42/Demo-arm64.dSYM")
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try FileManager.default.copyItem(at: BuiltCommandTests.root.appendingPathComponent(Self.dsym), to: target)
        return folder.appendingPathComponent("symbols").path
    }

    private func listing(_ folder: String) -> [String] {
        ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test("symbolicate --symbols DIR writes what --dsym writes; the index goes to --symbol-cache and is reused")
    func folderSource() throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let symbols = try symbolFolder(in: folder)
        let before = listing(symbols)
        let cache = folder.appendingPathComponent("cache").path
        let binary = try BuiltCommandTests.binary()
        let direct = try BuiltCommandTests.run(binary, ["symbolicate", Self.report, "--dsym", Self.dsym])
        #expect(direct.status == 0)
        #expect(direct.stdout.contains("compute + 76 (main.c:16)"))
        for _ in 0..<2 {
            let run = try BuiltCommandTests.run(
                binary,
                ["symbolicate", Self.report, "--symbols", symbols, "--symbol-cache", cache]
            )
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == direct.stdout)
        }
        #expect(listing(cache + "/folders").count == 1)
        #expect(listing(symbols) == before, "something was written beside the symbols")
    }

    @Test(
        "APM_INSPECT_SYMBOLS lists sources for every run; XDG_CACHE_HOME places the cache; inspect and translate agree"
    )
    func environment() throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let symbols = try symbolFolder(in: folder)
        let environment = [
            "APM_INSPECT_SYMBOLS": "\(symbols), s3://Not_A_Bucket/unified",
            "XDG_CACHE_HOME": folder.appendingPathComponent("xdg").path,
        ]
        let binary = try BuiltCommandTests.binary()
        let run = try BuiltCommandTests.run(binary, ["symbolicate", Self.report], environment: environment)
        #expect(run.status == 0)
        #expect(run.stdout.contains("compute + 76 (main.c:16)"))
        #expect(
            run.stderr.contains(
                "--symbols s3://Not_A_Bucket/unified: warning: not an S3 bucket name: Not_A_Bucket; the source is skipped"
            ),
            "\(run.stderr)"
        )
        #expect(listing(folder.appendingPathComponent("xdg/apm-inspect/symbols/folders").path).count == 1)
        for (command, report) in [("inspect", Self.report), ("translate", Self.ips)] {
            let viaDSYM = try BuiltCommandTests.run(binary, [command, report, "--dsym", Self.dsym])
            let viaSource = try BuiltCommandTests.run(binary, [command, report], environment: environment)
            #expect(viaSource.status == 0, "\(command): \(viaSource.stderr)")
            #expect(viaSource.stdout == viaDSYM.stdout, "\(command)")
            #expect(viaSource.stdout.contains("compute"), "\(command)")
        }
    }

    @Test("symbolicate with no --dsym, no --symbols and no APM_INSPECT_SYMBOLS is a usage error")
    func noSource() throws {
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["symbolicate", Self.report],
            environment: ["APM_INSPECT_SYMBOLS": ""]
        )
        #expect(run.status == 2)
        #expect(run.stderr.contains("--dsym or --symbols is required"))
    }
}
