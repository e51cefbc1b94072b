import Foundation
import FuzzProperties
import FuzzReplaySupport
import Testing

/// Replays, without sanitizers, every input the crash-report fuzz targets crashed on (`Fuzz/FailCases/<target>/`)
/// and their seeds, through the very checks the targets in `Fuzz/Sources/` run (``FuzzChecks``).
@Suite struct FuzzFailCaseTests {
    @Test func text() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzCrashText", corpus: ["crash": ".crash", "crash": ".txt"]) {
            FuzzReplayInputs.expect(FuzzChecks.crashReport(bytes), name)
        }
    }

    @Test func json() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzCrashJSON", corpus: ["crash": ".ips", "watchdog": ".ips"]) {
            FuzzReplayInputs.expect(FuzzChecks.crashReport(bytes), name)
        }
    }

    @Test func ksCrash() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzKSCrash", corpus: ["kscrash": ".json"]) {
            FuzzReplayInputs.expect(FuzzChecks.ksCrash(bytes), name)
        }
    }
}
