import Foundation
import FuzzProperties
import FuzzReplaySupport
import Testing

/// Replays, without sanitizers, every input the core fuzz targets crashed on (`Fuzz/FailCases/<target>/`) and their
/// seeds, through the very checks the targets in `Fuzz/Sources/` run (``FuzzChecks``).
@Suite struct FuzzFailCaseTests {
    @Test func ipsContainer() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzIPSContainer", corpus: ["jetsam": ".ips", "crash": ".ips"])
        {
            FuzzReplayInputs.expect(FuzzChecks.ipsContainer(bytes), name)
        }
    }

    @Test func jsonTapeBuilders() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzJSONTape", corpus: ["http": ".har"]) {
            FuzzReplayInputs.expect(FuzzChecks.jsonTape(bytes), name)
        }
    }

    @Test func outputEncoder() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzJSONEncoder", corpus: ["http": ".har"]) {
            FuzzReplayInputs.expect(FuzzChecks.jsonEncoder(bytes), name)
        }
    }

    @Test func gzip() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzGzip", corpus: ["http": ".gz", "powerlog": ".gz"]) {
            FuzzReplayInputs.expect(FuzzChecks.gzip(bytes), name)
        }
    }

    @Test func tar() throws {
        let inputs = try FuzzReplayInputs.load("FuzzTar", corpus: ["sysdiagnose": ".tar.gz", "powerlog": ".tar.gz"])
        for (name, bytes) in inputs {
            FuzzReplayInputs.expect(FuzzChecks.tar(bytes), name)
        }
    }

    /// The checks report what they find: a broken property is not passed over.
    @Test func aCheckReportsAViolation() {
        var found = FuzzFindings()
        found.require(true, "holds")
        found.require(false, "broken")
        #expect(found.violations == ["broken"])
        // A gzip stream whose one-shot and streaming reads must agree: a corrupt header is refused by both.
        #expect(FuzzChecks.gzip([0x1F, 0x8B, 0x08, 0x00, 0xFF]).isEmpty)
    }
}
