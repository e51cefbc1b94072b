import APMInspectCore
import Foundation
import Testing

@testable import CrashReportParsing

/// KSCrash 2.x reports that are not crashes (hangs, profiles, OS terminations), from the Corpus and from crafted
/// variants: each read into its category with its figures, and hostile values skipped with a diagnostic.
@Suite struct KSCrashKindsTests {
    /// A KSCrash 3.7 report with `error` and `threads` as given (JSON text).
    static func report(error: String, threads: String = "[]") throws -> CrashParseResult {
        let json = """
            {"report": {"version": "3.7.0", "id": "T", "process_name": "Kestrel", "type": "standard"},
             "system": {"CFBundleIdentifier": "net.example.kestrel", "cpu_arch": "arm64"},
             "binary_images": [],
             "crash": {"error": \(error), "threads": \(threads)}}
            """
        return try KSCrashReader().parse(Array(json.utf8))
    }

    static let mainThread = """
        [{"index": 0, "crashed": true, "backtrace": {"contents": [
          {"instruction_addr": 4096, "object_addr": 0, "object_name": "Kestrel", "symbol_name": "spin",
           "symbol_addr": 4000}]}}]
        """

    @Test func corpusHangIsARecoveredHangWithItsDuration() throws {
        let report = try KSCrashCorpusTests.read("v3.7.0_ios18.2_arm64_hang_recovered_sqlite_main_thread.json").report
        #expect(report.category == .hang)
        #expect(report.isNotACrash)
        let hang = try #require(report.hang)
        #expect(hang.recovered)
        // 512995791904125 − 512993041277250 ns.
        #expect(hang.durationSeconds == 2.750626875)
        #expect(hang.startRole == "FOREGROUND_APPLICATION")
        #expect(report.crashedThread == 0)
        #expect(report.threads.first?.frames.count == 11)
    }

    @Test func corpusWatchdogKillCarriesTheExitReasonCode() throws {
        let report = try KSCrashCorpusTests.read("v3.7.0_ios18.2_arm64_watchdog_0x8badf00d_launch_hang.json").report
        #expect(report.category == .watchdogTermination)
        #expect(!report.isNotACrash)
        #expect(report.exitReasonCode == HexValue(0x8bad_f00d))
        #expect(report.termination == nil)
        #expect(report.hang?.recovered == false)
        #expect(report.exception?.signal == "SIGKILL")
    }

    @Test func corpusProfileIsNotACrashAndKeepsItsSamples() throws {
        let report = try KSCrashCorpusTests.read("v3.7.0_ios18.2_arm64_profile_startup_samples.json").report
        #expect(report.category == .profile)
        #expect(report.isNotACrash)
        let profile = try #require(report.profile)
        #expect(profile.frames.count == 8)
        #expect(profile.samples.count == 10)
        #expect(profile.durationSeconds == 0.1)
        #expect(profile.sampleIntervalSeconds == 0.01)
        let (lines, complete) = profile.foldedStacks()
        #expect(complete)
        // Four samples in SQLite, three in the image decoder; the empty sample gives no line.
        let sqlite = try #require(lines.first { $0.hasSuffix(";__psynch_mutexwait 4") })
        #expect(sqlite.hasPrefix("main;UIApplicationMain;"))
        #expect(lines.contains { $0.hasSuffix("ImageDecoderC6decodey10Foundation4DataVAA5PixelVF 3") })
        #expect(lines.map { Int($0.split(separator: " ").last ?? "") ?? 0 }.reduce(0, +) == 9)
    }

    @Test func corpusMemoryTerminationIsAnOOM() throws {
        let report = try KSCrashCorpusTests.read("v3.9.0_ios18.2_arm64_termination_memory_limit.json").report
        #expect(report.category == .outOfMemory)
        #expect(report.terminationReason == "memory_limit")
        #expect(!report.isNotACrash)
    }

    @Test func hangWithoutEndTimeHasNoDuration() throws {
        let result = try Self.report(
            error: #"{"type": "hang", "hang": {"hang_start_nanos": 1000}}"#,
            threads: Self.mainThread
        )
        #expect(result.report.category == .hang)
        #expect(result.report.hang?.durationSeconds == nil)
        #expect(result.report.hang?.startNanoseconds == 1000)
        #expect(result.diagnostics.contains { $0.location?.keyPath == "crash.error.hang" })
    }

    @Test func hangEndingBeforeItStartsHasNoDuration() throws {
        let result = try Self.report(
            error: #"{"type": "hang", "hang": {"hang_start_nanos": 5000000000, "hang_end_nanos": 1000}}"#
        )
        #expect(result.report.hang?.durationSeconds == nil)
        #expect(result.diagnostics.contains { $0.code == .kscrashHangEndsBeforeStart })
    }

    @Test func hostileHangTimesAreSkipped() throws {
        let result = try Self.report(
            error: #"""
                {"type": "hang", "hang": {"hang_start_nanos": -7, "hang_end_nanos": 1e400,
                 "hang_start_role": 12, "hang_end_role": {"x": 1}}}
                """#
        )
        let hang = try #require(result.report.hang)
        #expect(hang.startNanoseconds == nil)
        #expect(hang.endNanoseconds == nil)
        #expect(hang.durationSeconds == nil)
        #expect(result.diagnostics.contains { $0.location?.keyPath == "crash.error.hang.hang_start_nanos" })
    }

    @Test func hangAtTheEndOfTheClockIsMeasured() throws {
        let result = try Self.report(
            error: #"""
                {"type": "hang", "hang": {"hang_start_nanos": 0, "hang_end_nanos": 18446744073709551615}}
                """#
        )
        let seconds = try #require(result.report.hang?.durationSeconds)
        #expect(seconds > 18_446_744_073 && seconds < 18_446_744_074)
    }

    @Test func hangWithoutItsBlockOrThreadsIsStillAHang() throws {
        let result = try Self.report(error: #"{"type": "hang"}"#)
        #expect(result.report.category == .hang)
        #expect(result.report.hang?.recovered == true)
        #expect(result.report.threads.isEmpty)
        #expect(result.report.crashedThread == nil)
        #expect(!result.diagnostics.isEmpty)
    }

    @Test func profileFrameIndexesOutOfRangeAreLeftOut() throws {
        let result = try Self.report(
            error: #"""
                {"type": "profile", "profile": {"time_units": "microseconds", "duration": 2500000,
                 "frames": [{"instruction_addr": 16, "symbol_name": "leaf"}, {"instruction_addr": 32,
                   "symbol_name": "root fn;x"}],
                 "samples": [{"frames": [0, 1]}, {"frames": [0, -1, 99, 18446744073709551616, "1", 1.5, 1]},
                   {"frames": "none"}, 7, {"frames": []}]}}
                """#
        )
        let profile = try #require(result.report.profile)
        #expect(profile.durationSeconds == 2.5)
        #expect(profile.samples.map(\.frames) == [[0, 1], [0, 1], []])
        #expect(result.diagnostics.contains { $0.code == .kscrashSampleFrameOutOfRange })
        #expect(result.diagnostics.contains { $0.code == .kscrashSampleWithoutFrames })
        // The folded names lose the format's separators.
        #expect(profile.foldedStacks().lines == ["root_fn_x;leaf 2"])
    }

    @Test func profileInUnknownUnitsHasNoTimes() throws {
        let result = try Self.report(
            error: #"{"type": "profile", "profile": {"time_units": "fortnights", "duration": 3, "frames": []}}"#
        )
        #expect(result.report.profile?.durationSeconds == nil)
        #expect(result.diagnostics.contains { $0.location?.keyPath == "crash.error.profile.time_units" })
    }

    @Test func profileFrameBudgetCutsTheStacks() throws {
        let frames = (0..<3).map { #"{"instruction_addr": \#($0 + 1), "symbol_name": "f\#($0)"}"# }
        let samples = (0..<5).map { _ in #"{"frames": [0, 1, 2]}"# }
        let result = try Self.report(
            error: """
                {"type": "profile", "profile": {"frames": [\(frames.joined(separator: ","))],
                 "samples": [\(samples.joined(separator: ","))]}}
                """
        )
        let folded = try #require(result.report.profile).foldedStacks(frameBudget: 7)
        #expect(!folded.isComplete)
        #expect(folded.lines == ["f2;f1;f0 2"])
    }

    @Test(arguments: [
        ("memory_limit", ReportCategory.outOfMemory), ("memory_pressure", .outOfMemory),
        ("thermal", .watchdogTermination),
        ("cpu", .resourceKill), ("hang", .watchdogTermination),
    ])
    func terminationReasonsHaveTheirCategory(reason: String, category: ReportCategory) throws {
        let result = try Self.report(error: #"{"type": "termination", "termination_reason": "\#(reason)"}"#)
        #expect(result.report.category == category)
        #expect(result.report.terminationReason == reason)
    }

    @Test func unknownTerminationReasonStaysACrashWithADiagnostic() throws {
        let result = try Self.report(error: #"{"type": "termination", "termination_reason": "os_upgrade"}"#)
        #expect(result.report.category == nil)
        #expect(result.diagnostics.contains { $0.location?.keyPath == "crash.error.termination_reason" })
    }

    @Test func memoryTerminationIsAnOOM() throws {
        let result = try Self.report(error: #"{"type": "memory_termination", "memory_termination": {}}"#)
        #expect(result.report.category == .outOfMemory)
    }

    @Test func exitReasonOfZeroOrNonsenseIsNoKill() throws {
        for value in ["0", "\"zz\"", "null", "[1]"] {
            let result = try Self.report(
                error: #"{"type": "signal", "signal": {"signal": 9}, "exit_reason": {"code": \#(value)}}"#
            )
            #expect(result.report.category == nil, "code \(value)")
            #expect(result.report.exitReasonCode == nil, "code \(value)")
        }
    }

    @Test func writerSaysNotFatal() throws {
        let result = try Self.report(
            error: #"{"type": "mach", "mach": {"exception": 11, "code": 0}, "is_fatal": false}"#,
            threads: Self.mainThread
        )
        #expect(result.report.exception?.isNonFatal == true)
        #expect(result.report.isNotACrash)
        #expect(result.report.category == nil)
    }

    @Test func newKeysRoundTripThroughTheJSONModel() throws {
        let report = try KSCrashCorpusTests.read("v3.7.0_ios18.2_arm64_profile_startup_samples.json").report
        let data = try JSONEncoder().encode(report)
        let back = try JSONDecoder().decode(CrashReport.self, from: data)
        #expect(back.profile == report.profile)
        #expect(back.category == .profile)
        let text = try SortedJSONEncoder().encode(report)
        #expect(text.contains(#""category":"profile""#))
        let hang = try KSCrashCorpusTests.read("v3.7.0_ios18.2_arm64_hang_recovered_sqlite_main_thread.json").report
        #expect(try SortedJSONEncoder().encode(hang).contains(#""durationSeconds":2.750626875"#))
    }
}
