import Foundation
import Testing

/// KSCrash reports through the built command: `inspect` gives kind `kscrash`, `translate` Apple's text layout that
/// `inspect` reads back as a crash report, `scan` counts them.
@Suite struct KSCrashCommandTests {
    static let report = "Corpus/kscrash/v3.2.0_ios15.7_arm64e_exc_bad_access_crashdoctor_diagnosis.json"

    @Test func inspectGivesTheKSCrashKind() throws {
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["inspect", "--format", "json", Self.report]
        )
        #expect(run.status == 0, "\(run.stderr)")
        let envelope = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        )
        #expect(envelope["kind"] as? String == "kscrash")
        let report = try #require(envelope["report"] as? [String: Any])
        #expect(report["sourceFormat"] as? String == "kscrash")
        #expect(report["crashedThread"] as? Int == 0)
        #expect((report["exception"] as? [String: Any])?["type"] as? String == "EXC_BAD_ACCESS")
        let text = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["inspect", Self.report])
        #expect(text.stdout.contains("Lanternfish [812]"))
        #expect(text.stdout.contains("EXC_BAD_ACCESS (SIGSEGV)"))
    }

    @Test func translateWritesAppleTextThatReadsBack() throws {
        let binary = try BuiltCommandTests.binary()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kscrash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("report.crash").path
        let run = try BuiltCommandTests.run(binary, ["translate", "-o", output, Self.report])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("Exception Type:  EXC_BAD_ACCESS (SIGSEGV)"))
        #expect(text.contains("Triggered by Thread:  0"))
        let back = try BuiltCommandTests.run(binary, ["inspect", "--format", "json", output])
        let envelope = try #require(
            try JSONSerialization.jsonObject(with: Data(back.stdout.utf8)) as? [String: Any]
        )
        #expect(envelope["kind"] as? String == "crashReport")
    }

    /// KSCrash writes Swift names as the linker spells them; every output, translate's text included, shows them
    /// demangled, as Apple's reports and symbolication do.
    @Test func translateShowsSwiftNamesDemangled() throws {
        let swift = "Corpus/kscrash/sentrycrash_v3.2.0_ios17.4_exc_breakpoint_swift_fatal_error_scope.json"
        let binary = try BuiltCommandTests.binary()
        let run = try BuiltCommandTests.run(binary, ["translate", swift])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("0x1027143a0 Ledger.balance(for:) + 180"))
        #expect(!run.stdout.contains("$s7Ferrule"))
        let inspected = try BuiltCommandTests.run(binary, ["inspect", "--threads", "crashed", swift])
        #expect(inspected.stdout.contains("Ledger.balance(for:)"))
        #expect(!inspected.stdout.contains("$s7Ferrule"))
    }

    @Test func scanCountsThem() throws {
        let run = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["scan", "Corpus/kscrash"])
        // Six crashes, and the hang, watchdog kill, profile and memory termination of KSCrash 2.x.
        #expect(run.stdout.contains("10\tkscrash"))
        #expect(run.stdout.contains("Lanternfish"))
    }
}
