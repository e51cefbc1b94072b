import Foundation
import FuzzProperties
import FuzzReplaySupport
import Testing

/// Replays, without sanitizers, every input the MetricKit fuzz target crashed on (`Fuzz/FailCases/FuzzMetricKit/`)
/// and its seeds, through the very checks the target in `Fuzz/Sources/` runs (``FuzzChecks``).
@Suite struct FuzzFailCaseTests {
    @Test func payloads() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzMetricKit", corpus: ["metrickit": ".json"]) {
            FuzzReplayInputs.expect(FuzzChecks.metricKit(bytes), name)
        }
    }
}
