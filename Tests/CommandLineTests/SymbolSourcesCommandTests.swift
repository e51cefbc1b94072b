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

    static let systemReports = "Tests/SymbolicationTests/SystemFixtures/reports/"

    /// Xcode's DeviceSupport layout holding the two system fixture libraries (as copied from a Mac).
    private func deviceSupport(in folder: URL) throws -> String {
        let tree = folder.appendingPathComponent("iOS DeviceSupport/iPhone15,2 17.5 (21F79)/Symbols")
        let fixtures = BuiltCommandTests.root.appendingPathComponent("Tests/SymbolicationTests/SystemFixtures")
        for (name, place) in [
            ("libsystem_kernel.dylib", "usr/lib/system/libsystem_kernel.dylib"),
            ("UIKitCore", "System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"),
        ] {
            let target = tree.appendingPathComponent(place)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(name), to: target)
        }
        return folder.appendingPathComponent("iOS DeviceSupport").path
    }

    @Test("system frames are named from a DeviceSupport folder by inspect, symbolicate, translate, scan and report")
    func deviceSupportFolder() throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = try deviceSupport(in: folder)
        let before = listing(tree)
        let binary = try BuiltCommandTests.binary()
        let sources = [
            "--symbols", tree, "--dsym", Self.dsym, "--symbol-cache", folder.appendingPathComponent("c").path,
        ]
        for name in ["System-arm64e-ios.crash", "System-arm64e-ios.ips"] {
            let run = try BuiltCommandTests.run(binary, ["symbolicate", Self.systemReports + name] + sources)
            #expect(run.status == 0, "\(run.stderr)")
            let expected = try String(
                contentsOf: BuiltCommandTests.root.appendingPathComponent(Self.systemReports + "expected/" + name),
                encoding: .utf8
            )
            #expect(run.stdout == expected, "symbolicate \(name)")
        }
        let translated = try BuiltCommandTests.run(
            binary,
            ["translate", Self.systemReports + "System-arm64e-ios.ips"] + sources
        )
        #expect(translated.status == 0)
        for line in ["kernel_trap_number + 24", "-[UIApplication sendEvent:] + 16", "mach_msg2_trap + 36"] {
            #expect(translated.stdout.contains(line), "translate: \(line)")
        }
        let inspected = try BuiltCommandTests.run(
            binary,
            ["inspect", Self.systemReports + "System-arm64e-ios.crash", "--format", "json"] + sources
        )
        #expect(inspected.status == 0)
        #expect(inspected.stdout.contains("\"kernel_trap_number\""), "inspect")
        #expect(inspected.stdout.contains("\"-[UIApplication sendEvent:]\""), "inspect")
        // scan reads a folder of both reports.
        let reports = folder.appendingPathComponent("reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        for name in ["System-arm64e-ios.crash", "System-arm64e-ios.ips"] {
            try FileManager.default.copyItem(
                at: BuiltCommandTests.root.appendingPathComponent(Self.systemReports + name),
                to: reports.appendingPathComponent(name)
            )
        }
        let scanned = try BuiltCommandTests.run(binary, ["scan", reports.path, "--format", "ndjson"] + sources)
        #expect(scanned.status == 0)
        #expect(scanned.stdout.components(separatedBy: "\"kernel_trap_number\"").count == 3, "scan: both reports")
        // report groups crashes by their top app frames, and by their top three frames when they have none: a
        // crash in system code alone is grouped, and shown, by the system functions' names.
        let systemOnly = folder.appendingPathComponent("system-only")
        try FileManager.default.createDirectory(at: systemOnly, withIntermediateDirectories: true)
        let text = try String(
            contentsOf: BuiltCommandTests.root.appendingPathComponent(Self.systemReports + "System-arm64e-ios.crash"),
            encoding: .utf8
        )
        let withoutApp = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("4   Demo ") }.joined(separator: "\n")
        try Data(withoutApp.utf8).write(to: systemOnly.appendingPathComponent("System.crash"))
        let reported = try BuiltCommandTests.run(binary, ["report", systemOnly.path, "--format", "json"] + sources)
        #expect(reported.status == 0, "\(reported.stderr)")
        #expect(reported.stdout.contains("libsystem_kernel.dylib`kernel_trap_number"), "report")
        let unnamed = try BuiltCommandTests.run(binary, ["report", systemOnly.path, "--format", "json"])
        #expect(unnamed.stdout.contains("libsystem_kernel.dylib+0x4040"), "report without the folder")
        #expect(listing(tree) == before, "something was written beside the symbols")
    }
}
