import APMInspectCore
import CrashReportParsing
import Foundation
import ReportInspection
import Testing

@testable import ParserFuzzing

/// The worker's `dropped-unknown-key` property on bodies that a stray `}` cuts into pieces.
@Suite("fuzz: unknown keys")
struct FuzzUnknownKeyTests {
    /// The minimised input of `ips-dropped-unknown-key-f54476f4` (seed 1, 2000 inputs over the fixtures).
    ///
    /// A header cut at the front, then a body whose `{` a stray `}` closes two lines on. The key the worker adds
    /// after that `{` was dropped with the object holding it.
    static let finding =
        #"amp":"2026-11.demo","sharet_party":0,"bug_type":"309","os_version":"iPhone OS 16.1 (20B82)","#
        + #""roots_instaident_id":"2F2B1A0F9E"}"#
        + "\n{\n.demo\"\n  },\n : 1,\n ,\n  \"exception\": {\n    \"codes\": \""

    /// The same finding, minimised, from seeds 2, 3, 4 and 7 (3000 inputs over Corpus/crash, Corpus/jetsam,
    /// Corpus/watchdog and the fixtures' reports): a JetsamEvent body a header vouches for, followed by a `,` or
    /// text; a piece that repeats the body's `bug_type`; a piece with a `timestamp`.
    static let sameClass: [(String, String)] = [
        (#"{"bug_type":"298","ti":"","id":""}"# + "\n{ },\n", "jetsamEvent"),
        (#"{"bug_type":"298","ti":"47)","i_id":"A50"}"# + "\n{\n \n  \"paixelia\"},\n    ", "jetsamEvent"),
        (
            #"party":0,"bug_type":"309","oon":"iPhon2)","roots__id":"2F6B1E"}"#
                + "\n{\n  \"uplled\": 0,\n  \"bug_type\": \"30\"\"\n  }\"00\",\n  \"procName\" : \"Harbor\",\n  \"pr",
            "crashReport"
        ),
        (#"{"bug_type":"298","ti":"202347)","i_id":"A50"}"# + "\n{\n    \"timestamp\" : \"20\n    },", "jetsamEvent"),
    ]

    @Test("the minimised findings pass every check")
    func findings() {
        var oracle = FuzzOracle(temporaryFolder: FileManager.default.temporaryDirectory.path, renderText: { _ in })
        #expect(oracle.check(Array(Self.finding.utf8)) == WorkerVerdict(kind: "crashReport"))
        for (input, kind) in Self.sameClass {
            #expect(oracle.check(Array(input.utf8)) == WorkerVerdict(kind: kind), "\(input)")
        }
    }

    /// `ips-dropped-unknown-key-f54476f4` again (seed 32, 60 s over Corpus).
    ///
    /// The header line of a watchdog report repeated 838 times: so long it is read as body fragments, whose
    /// members use up the JetsamEvent allowance of 10,000 unknown values before the body the added key goes into.
    /// The drop is the documented cap, reported as such; the check accepts it only with that report.
    @Test("a key past the reported unknown-value allowance is not a silent drop")
    func allowanceUsedUp() throws {
        let path = "Corpus/watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips"
        let bytes = [UInt8](try Data(contentsOf: PackageRoot.url.appendingPathComponent(path)))
        let newline = try #require(bytes.firstIndex(of: 0x0A))
        var oracle = FuzzOracle(temporaryFolder: FileManager.default.temporaryDirectory.path, renderText: { _ in })
        for (count, capped) in [(838, true), (400, false)] {
            let input = Array(Array(repeating: bytes[..<newline], count: count).joined()) + bytes[newline...]
            let inspection = ReportInspector().inspect(bytes: input, path: "repeated")
            #expect(inspection.kind == .jetsamEvent)
            #expect(inspection.diagnostics.contains { $0.code == .jetsamUnknownValuesLimit } == capped)
            #expect(oracle.check(input) == WorkerVerdict(kind: "jetsamEvent"), "\(count) header lines")
        }
    }

    /// The class: a stray `}` right after the body's `{`, for a crash report and a JetsamEvent of the corpus.
    @Test(
        "a stray brace after the top of the body keeps the added key",
        arguments: [
            "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.ips",
            "Corpus/jetsam/ios11.2.6_iPhone7-1_pagesize4096_per-process-limit_650MB.ips",
        ]
    )
    func strayBrace(_ path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: PackageRoot.url.appendingPathComponent(path)))
        var oracle = FuzzOracle(temporaryFolder: FileManager.default.temporaryDirectory.path, renderText: { _ in })
        let kind = oracle.check(bytes).kind
        let brace = try #require(bytes.firstIndex(of: 0x0A).flatMap { bytes[$0...].firstIndex(of: UInt8(ascii: "{")) })
        bytes.insert(contentsOf: Array("\n},\n".utf8), at: brace + 1)
        #expect(oracle.check(bytes) == WorkerVerdict(kind: kind), "\(path)")
    }

    /// `dropped-unknown-key` from seed 7 (45 s over the fixture dSYM and `Demo-arm64-ios.ips`).
    ///
    /// A 309 header whose `timestamp` became a run of quotes, an odd number of them, so every string after it
    /// pairs the wrong way and the added key is swallowed as bare text. That is one of more than 40 repairs, past
    /// the listed ones: the
    /// summary note now gives the stretch its unlisted repairs lie in, and the check accepts the drop only there.
    @Test("a key lost in repairs past the listed ones is reported by the summary note's stretch")
    func keyInUnlistedRepairs() throws {
        let header =
            #"{"app_name":"Demo","timestam"# + String(repeating: "\"", count: 82)
            + #"type":"309","os_version":"iPhoC1B-9E7A-5D3C2B1A0F9E"}"#
        let body =
            "\n{\n   14:32:07.4120 +0100\",\n  \"incident\": \"2F6B1E5C-8A0D-4C1B\"iPhone OS 16.1\",\n"
            + "  \"bundleInfo\": {\n    \"CFBundleShortVersionString\": \"1.0\",\n    \"CFple.demo\"\n  },\n"
            + "  \"parentProc\": \"launchd\",\n  \"parentPid\": 1,\n  \"coalitionName\": \"com.example.demo\",\n"
            + "  \"crashReporterKey\": \"0123456789abcdef0123456789abcdef01234567\",\n  \""
        let input = Array((header + body).utf8)
        let inspection = ReportInspector().inspect(bytes: input, path: "quotes")
        #expect(inspection.kind == .jetsamEvent)
        let summary = try #require(inspection.diagnostics.first { $0.code == .jsonMoreRepairsNotListed })
        let first = try #require(summary.location?.byteOffset)
        let last = try #require(summary.location?.lastByteOffset)
        #expect(first < last && last <= input.count)
        var oracle = FuzzOracle(temporaryFolder: FileManager.default.temporaryDirectory.path, renderText: { _ in })
        #expect(oracle.check(input) == WorkerVerdict(kind: inspection.kind.rawValue))
    }

    /// `translate-round-trip` from seed 21 (90 s over the fixtures and Corpus/system): an exception type holding an
    /// escape sequence comes back as the text shows it (`\x1b[31m`), as `translate` promises for every control a
    /// value holds; the check compares it with that, not with the raw bytes.
    @Test("a control character in a translated name round-trips as the text shows it")
    func escapedNameRoundTrips() throws {
        let path = "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.ips"
        let text = try String(contentsOf: PackageRoot.url.appendingPathComponent(path), encoding: .utf8)
        let damaged = text.replacingOccurrences(of: #""type": "EXC_BAD_ACCESS""#, with: #""type": "\u001b[31mred""#)
        #expect(damaged != text)
        var oracle = FuzzOracle(temporaryFolder: FileManager.default.temporaryDirectory.path, renderText: { _ in })
        #expect(oracle.check(Array(damaged.utf8)) == WorkerVerdict(kind: "crashReport"))
    }

    /// `translate-round-trip` from seed 21: an image whose name is a JSON number of 66,000 digits (numbers are not cut
    /// as strings longer than 64 KiB are) is translated whole; reading the text
    /// back cuts that frame line at 64 KiB with `crash.line-too-long`, so the frame is lost with a warning, and the
    /// round trip (promised for lines the reader reads whole) is not held against it.
    @Test("a frame line longer than the text reader's bound is a reported cut, not a round-trip finding")
    func overlongImageNameRoundTrip() throws {
        let path = "Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.ips"
        let text = try String(contentsOf: PackageRoot.url.appendingPathComponent(path), encoding: .utf8)
        let long = String(repeating: "9", count: 66_000)
        let damaged = text.replacingOccurrences(of: #""name": "Analytics""#, with: "\"name\": \(long)")
        #expect(damaged != text)
        let translation = try CrashTextTranslator().translation(of: Array(damaged.utf8))
        let back = ReportInspector().inspect(bytes: Array(translation.text.utf8), path: "translated")
        #expect(back.diagnostics.contains { $0.code == .crashLineTooLong })
        var oracle = FuzzOracle(temporaryFolder: FileManager.default.temporaryDirectory.path, renderText: { _ in })
        #expect(oracle.check(Array(damaged.utf8)) == WorkerVerdict(kind: "crashReport"))
    }
}
