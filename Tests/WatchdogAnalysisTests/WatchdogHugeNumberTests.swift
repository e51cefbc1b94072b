import APMInspectCore
import CrashReportParsing
import Foundation
import Testing

@testable import WatchdogAnalysis

/// Elapsed times, CPU times and allowances of 2^63 seconds and more (issue 15).
///
/// A 2 KB report saying so trapped in the main-thread diagnosis and killed a whole `scan`. The reports are the corpus files with the figures
/// replaced at test time.
@Suite struct WatchdogHugeNumberTests {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus/watchdog")

    private func analyze(_ name: String, replacing replacements: [(String, String)]) throws -> WatchdogTermination {
        var text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        for (original, hostile) in replacements {
            #expect(text.contains(original), "\(name) no longer says \(original)")
            text = text.replacingOccurrences(of: original, with: hostile)
        }
        let report = try CrashReportParser().parse(Array(text.utf8)).report
        return try #require(WatchdogDetector.analyze(report))
    }

    @Test func legacyElapsedAndCPUBeyondTheIntegerRange() throws {
        let watchdog = try analyze(
            "ios8.4_text_00000020_8badf00d_scene-create_legacy.crash",
            replacing: [
                ("after 19.81s", "after 9223372036854775807s"),
                (
                    "Elapsed application CPU time (seconds): 6.870",
                    "Elapsed application CPU time (seconds): 18446744073709551616"
                ),
            ]
        )
        #expect(watchdog.elapsedSeconds == 9_223_372_036_854_775_807.0)
        #expect(watchdog.cpu?.appSeconds == 18_446_744_073_709_551_616.0)
        let diagnosis = try #require(watchdog.diagnosis)
        // The figures are shown as Swift prints them, never converted to an integer.
        #expect(diagnosis.reasons.joined().contains("1.8446744073709552e+19 s"))
    }

    @Test func allowanceAndCPUOfInfinity() throws {
        // A long run of digits reads as infinity.
        let endless = "1" + String(repeating: "0", count: 400)
        let watchdog = try analyze(
            "ios13.6_text_springboard_scene-create_8badf00d_semaphore.crash",
            replacing: [
                ("allowance of 19.97 seconds", "allowance of \(endless) seconds"),
                ("Elapsed application CPU time (seconds): 0.104", "Elapsed application CPU time (seconds): \(endless)"),
            ]
        )
        #expect(watchdog.allowanceSeconds == .infinity)
        #expect(watchdog.cpu?.appSeconds == .infinity)
        #expect(watchdog.diagnosis != nil)
    }

    @Test func wholeSecondsBeyondIntAreNotIntegers() {
        #expect(WatchdogDetector.integer(9_223_372_036_854_775_807.0) == nil)
        #expect(WatchdogDetector.integer(.infinity) == nil)
        #expect(WatchdogDetector.integer(.nan) == nil)
        #expect(WatchdogDetector.integer(-12.7) == -12)
        #expect(WatchdogDetector.integer(4096) == 4096)
    }
}
