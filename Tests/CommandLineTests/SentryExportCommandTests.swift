import Foundation
import Testing

/// `inspect --format sentry` as users run it: with `--dsym`, the event groups by the names symbolication gave and
/// knows the app image's vmaddr; a report past Sentry's retention is said on standard error.
@Suite("apm-inspect binary: Sentry events")
struct SentryExportCommandTests {
    static let fixtures = "Tests/SymbolicationTests/Fixtures"
    static let report = fixtures + "/reports/Demo-arm64-ios.crash"

    static func event(_ arguments: [String]) throws -> (event: [String: Any], stderr: String) {
        let run = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["inspect"] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.stdout.split(separator: "\n").first)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return (try #require(object as? [String: Any]), run.stderr)
    }

    static func images(_ event: [String: Any]) throws -> [[String: Any]] {
        try #require((event["debug_meta"] as? [String: Any])?["images"] as? [[String: Any]])
    }

    /// `--dsym` takes one path per occurrence: given before the report, it does not swallow the report, and the
    /// event is the one `--dsym` after the report gives (issue 46).
    @Test func dsymBeforeTheReportTakesOnePath() throws {
        let after = try Self.event([Self.report, "--format", "sentry", "--dsym", Self.fixtures + "/Demo-arm64.dSYM"])
        let before = try Self.event(["--dsym", Self.fixtures + "/Demo-arm64.dSYM", "--format", "sentry", Self.report])
        #expect(before.event["fingerprint"] as? [String] == after.event["fingerprint"] as? [String])
        #expect(before.event["fingerprint"] != nil)
        let swallowed = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["inspect", "--dsym", Self.fixtures + "/Demo-arm64.dSYM", Self.report, "--format", "json"]
        )
        #expect(swallowed.status == 0, "\(swallowed.stderr)")
        #expect(swallowed.stdout.contains("Demo-arm64-ios.crash"))
    }

    /// Unsymbolicated frames (`Demo + offset`) give no fingerprint; the dSYM's names give one, and its vmaddr.
    @Test func dsymGivesNamesToGroupByAndTheVMAddress() throws {
        let bare = try Self.event([Self.report, "--format", "sentry"])
        #expect(bare.event["fingerprint"] == nil)
        #expect(try Self.images(bare.event).allSatisfy { $0["image_vmaddr"] == nil })

        let symbolicated = try Self.event([
            Self.report, "--format", "sentry", "--dsym", Self.fixtures + "/Demo-arm64.dSYM",
        ])
        #expect(
            symbolicated.event["fingerprint"] as? [String] == [
                "EXC_BAD_ACCESS SIGSEGV SIGNAL", "Demo`scale", "Demo`adjust", "Demo`compute", "Demo`main",
            ]
        )
        let images = try Self.images(symbolicated.event)
        let app = try #require(images.first { ($0["name"] as? String)?.hasSuffix("/Demo.app/Demo") == true })
        #expect(app["type"] as? String == "apple")
        #expect(app["uuid"] as? String == "4c4c4486-5555-3144-a175-2df7479ac8fa")
        #expect(app["image_vmaddr"] as? String == "0x100000000")
        // Only the image the dSYM is for: the system's are left without.
        #expect(images.filter { $0["image_vmaddr"] != nil }.count == 1)
    }

    /// A report from 2021 is past Sentry's 90 days: a note per event, and the count in the summary.
    @Test func oldEventIsSaidOnStandardError() throws {
        let file = "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"
        let (event, stderr) = try Self.event([file, "--format", "sentry"])
        #expect((event["tags"] as? [String: Any])?["original_timestamp"] as? String == "2021-03-09T19:42:17.3861+01:00")
        let id = try #require(event["event_id"] as? String)
        let note = "\(file): note: event \(id) happened at 2021-03-09T19:42:17.3861+01:00, before Sentry's 90-day"
        #expect(stderr.contains(note + " retention window: Sentry will date it when it receives it"))
        #expect(stderr.contains("apm-inspect: note: 1 event is older than Sentry's 90-day retention window"))
    }
}
