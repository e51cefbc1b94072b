import APMInspectCore
import CrashReportParsing
import Testing
import WatchdogAnalysis

/// A KSCrash report's OS kill read into the watchdog model Apple's reports use: the exit reason's code through
/// the same table, else the termination reason KSCrash names.
@Suite struct KSCrashTerminationTests {
    static func report(_ error: String) throws -> CrashReport {
        let json = """
            {"report": {"version": "3.7.0", "id": "W"}, "system": {"CFBundleIdentifier": "net.example.app"},
             "crash": {"error": \(error), "threads": [{"index": 0, "crashed": true, "backtrace": {"contents": [
               {"instruction_addr": 4096, "object_name": "libsystem_kernel.dylib", "symbol_name": "mach_msg2_trap",
                "symbol_addr": 4090}]}}]}}
            """
        return try KSCrashReader().parse(Array(json.utf8)).report
    }

    @Test(arguments: [
        (UInt64(0x8bad_f00d), WatchdogTermination.Kind.watchdogTimeout), (0xdead_10cc, .fileLockHeldInBackground),
        (0xc000_10ff, .thermal), (0xbad2_2222, .voip), (0xdead_fa11, .forceQuit), (0xc51b_ad01, .backgroundTask),
    ])
    func exitReasonCodesUseTheTerminationTable(code: UInt64, kind: WatchdogTermination.Kind) throws {
        let report = try Self.report(
            #"{"type": "mach", "signal": {"signal": 9}, "exit_reason": {"code": \#(code)}}"#
        )
        let watchdog = try #require(WatchdogDetector.analyze(kscrash: report))
        #expect(watchdog.kind == kind)
        #expect(watchdog.code == HexValue(code))
        #expect(watchdog.codeName != nil)
    }

    @Test func watchdogKillTakesTheHangAsItsElapsedTime() throws {
        let report = try Self.report(
            #"""
            {"type": "mach", "exit_reason": {"code": 2343432205},
             "hang": {"hang_start_nanos": 1000000000, "hang_end_nanos": 11000000000}}
            """#
        )
        let watchdog = try #require(WatchdogDetector.analyze(kscrash: report))
        #expect(watchdog.code?.description == "0x8badf00d")
        #expect(watchdog.elapsedSeconds == 10)
        #expect(watchdog.bundleId == "net.example.app")
        #expect(watchdog.diagnosis != nil)
    }

    @Test func unknownExitCodeIsAnOtherTermination() throws {
        let report = try Self.report(#"{"type": "mach", "exit_reason": {"code": 4660}}"#)
        let watchdog = try #require(WatchdogDetector.analyze(kscrash: report))
        #expect(watchdog.kind == .other)
        #expect(watchdog.code == HexValue(0x1234))
    }

    @Test func terminationReasonsWithoutACode() throws {
        let thermal = try #require(
            WatchdogDetector.analyze(
                kscrash: try Self.report(#"{"type": "termination", "termination_reason": "thermal"}"#)
            )
        )
        #expect(thermal.kind == .thermal)
        let cpu = try #require(
            WatchdogDetector.analyze(kscrash: try Self.report(#"{"type": "termination", "termination_reason": "cpu"}"#))
        )
        #expect(cpu.kind == .resourcePressure)
        let memory = try Self.report(#"{"type": "termination", "termination_reason": "memory_limit"}"#)
        #expect(WatchdogDetector.analyze(kscrash: memory) == nil)
    }

    @Test func crashesAndHangsAreNoTermination() throws {
        #expect(
            WatchdogDetector.analyze(kscrash: try Self.report(#"{"type": "signal", "signal": {"signal": 11}}"#)) == nil
        )
        #expect(WatchdogDetector.analyze(kscrash: try Self.report(#"{"type": "hang", "hang": {}}"#)) == nil)
    }
}
