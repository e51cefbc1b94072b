import Foundation
import FuzzProperties
import FuzzReplaySupport
import Testing

/// Replays, without sanitizers, every input the watchdog fuzz target crashed on (`Fuzz/FailCases/FuzzWatchdog/`) and
/// its seeds, through the check `Fuzz/Sources/FuzzWatchdog` runs (``FuzzChecks/watchdog(_:)``).
@Suite struct FuzzFailCaseTests {
    @Test func detector() throws {
        let inputs = try FuzzReplayInputs.load("FuzzWatchdog", corpus: ["watchdog": ".crash", "watchdog": ".ips"])
        for (name, bytes) in inputs {
            FuzzReplayInputs.expect(FuzzChecks.watchdog(bytes), name)
        }
    }
}
