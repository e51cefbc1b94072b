import APMInspectCore
import Foundation
import FuzzProperties
import FuzzReplaySupport
import JetsamParsing
import Testing

/// Replays, without sanitizers, every input the Jetsam fuzz targets crashed on (`Fuzz/FailCases/<target>/`) and
/// their seeds, through the very checks the targets in `Fuzz/Sources/` run (``FuzzChecks``).
@Suite struct FuzzFailCaseTests {
    @Test func fullModel() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzJetsam", corpus: ["jetsam": ".ips"]) {
            FuzzReplayInputs.expect(FuzzChecks.jetsam(bytes), name)
        }
    }

    @Test func memoryLimitFastPath() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzJetsamLimits", corpus: ["jetsam": ".ips"]) {
            Self.expectFastPathAgrees(bytes, name)
        }
    }

    private static func expectFastPathAgrees(_ bytes: [UInt8], _ name: String) {
        FuzzReplayInputs.expect(FuzzChecks.jetsamLimits(bytes), name)
    }
}
