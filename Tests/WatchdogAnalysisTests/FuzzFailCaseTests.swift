import APMInspectCore
import CrashReportParsing
import Foundation
import FuzzReplaySupport
import Testing
import WatchdogAnalysis

/// Replays, without sanitizers, every input the watchdog fuzz target crashed on (`Fuzz/FailCases/FuzzWatchdog/`) and
/// its seeds, through the same calls and properties as `Fuzz/Sources/FuzzWatchdog`.
@Suite struct FuzzFailCaseTests {
    @Test func detector() throws {
        let inputs = try FuzzReplayInputs.load("FuzzWatchdog", corpus: ["watchdog": ".crash", "watchdog": ".ips"])
        for (name, bytes) in inputs {
            guard let parsed = try? CrashReportParser().parse(bytes) else { continue }
            let first = WatchdogDetector.analyze(parsed.report)
            #expect(first == WatchdogDetector.analyze(parsed.report), "\(name)")
            if let first { FuzzReplayInputs.expectEncodes(first, name) }
        }
    }
}
