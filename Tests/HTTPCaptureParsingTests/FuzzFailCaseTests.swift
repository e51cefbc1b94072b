import ByteAccess
import Foundation
import FuzzProperties
import FuzzReplaySupport
import Testing

@testable import HTTPCaptureParsing

/// Replays, without sanitizers, every input the capture fuzz targets crashed on (`Fuzz/FailCases/<target>/`) and
/// their seeds, through the very checks the targets in `Fuzz/Sources/` run (``FuzzChecks``).
@Suite struct FuzzFailCaseTests {
    @Test func har() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzHAR", corpus: ["http": ".har"]) {
            FuzzReplayInputs.expect(FuzzChecks.har(bytes), name)
        }
    }

    @Test func charlesJSON() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzCharlesJSON", corpus: ["http": ".chlsj"]) {
            FuzzReplayInputs.expect(FuzzChecks.charlesJSON(bytes), name)
        }
    }

    @Test func charlesXML() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzCharlesXML", corpus: ["http": ".chlsx"]) {
            FuzzReplayInputs.expect(FuzzChecks.charlesXML(bytes), name)
        }
    }

    @Test func packetCapture() throws {
        let inputs = try FuzzReplayInputs.load("FuzzPacketCapture", corpus: ["http": ".pcap", "http": ".pcapng"])
        for (name, bytes) in inputs {
            FuzzReplayInputs.expect(FuzzChecks.packetCapture(bytes), name)
        }
    }

    @Test func dns() throws {
        var decoded = 0
        for (name, bytes) in try FuzzReplayInputs.load("FuzzDNS") {
            FuzzReplayInputs.expect(FuzzChecks.dns(bytes), name)
            if bytes.withBorrowedBytes({ DNSMessage(ByteView($0)) }) != nil { decoded += 1 }
        }
        #expect(decoded >= 2, "the query and response seeds decode")
    }

    @Test func tls() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzTLS") {
            FuzzReplayInputs.expect(FuzzChecks.tls(bytes), name)
        }
    }

    @Test func http1() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzHTTP1") {
            FuzzReplayInputs.expect(FuzzChecks.http1(bytes), name)
        }
    }
}
