import APMInspectCore
import Foundation
import FuzzReplaySupport
import Testing

@testable import HTTPCaptureParsing

/// Replays, without sanitizers, every input the capture fuzz targets crashed on (`Fuzz/FailCases/<target>/`) and
/// their seeds, through the same calls and properties as the targets in `Fuzz/Sources/`.
@Suite struct FuzzFailCaseTests {
    @Test func har() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzHAR", corpus: ["http": ".har"]) {
            guard let document = try? JSONDocument(bytes: bytes) else { continue }
            let first = try? HARReader().read(document)
            let second = try? HARReader().read(document)
            #expect(first?.0 == second?.0 && first?.1 == second?.1, "\(name)")
            if let first { FuzzReplayInputs.expectEncodes(first.0, name) }
        }
    }

    @Test func charlesJSON() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzCharlesJSON", corpus: ["http": ".chlsj"]) {
            guard let document = try? JSONDocument(bytes: bytes) else { continue }
            let first = try? CharlesJSONReader().read(document)
            let second = try? CharlesJSONReader().read(document)
            #expect(first?.0 == second?.0 && first?.1 == second?.1, "\(name)")
            if let first { FuzzReplayInputs.expectEncodes(first.0, name) }
        }
    }

    @Test func charlesXML() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzCharlesXML", corpus: ["http": ".chlsx"]) {
            let first = try? CharlesXMLReader().read(bytes)
            let second = try? CharlesXMLReader().read(bytes)
            #expect(first?.0 == second?.0 && first?.1 == second?.1, "\(name)")
            if let first { FuzzReplayInputs.expectEncodes(first.0, name) }
        }
    }

    @Test func packetCapture() throws {
        let inputs = try FuzzReplayInputs.load("FuzzPacketCapture", corpus: ["http": ".pcap", "http": ".pcapng"])
        for (name, bytes) in inputs {
            let analyzer = PacketCaptureAnalyzer(options: HTTPCaptureOptions())
            let first = try? analyzer.analyze(bytes)
            let second = try? analyzer.analyze(bytes)
            #expect(first?.0 == second?.0 && first?.1 == second?.1, "\(name)")
            if let first { FuzzReplayInputs.expectEncodes(first.0, name) }
        }
    }

    @Test func dns() throws {
        var decoded = 0
        for (name, bytes) in try FuzzReplayInputs.load("FuzzDNS") {
            let message = bytes.withUnsafeBytes { DNSMessage(ByteView($0)) }
            if let message {
                decoded += 1
                #expect(message.answers.count <= 64, "\(name)")
            }
        }
        #expect(decoded >= 2, "the query and response seeds decode")
    }

    @Test func tls() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzTLS") {
            guard bytes.count >= 2 else { continue }
            let rest = Array(bytes[2...])
            let split = min(rest.count, Int(bytes[0]) << 8 | Int(bytes[1]))
            var client = TCPStream()
            client.bytes = Array(rest[..<split])
            client.marks = [TCPStream.Mark(offset: 0, time: 1_000)]
            var server = TCPStream()
            server.bytes = Array(rest[split...])
            server.marks = [TCPStream.Mark(offset: 0, time: 2_000)]
            let first = TLSScanner(client: client, server: server)
            #expect(first.handshake == TLSScanner(client: client, server: server).handshake, "\(name)")
            FuzzReplayInputs.expectEncodes(first.handshake, name)
        }
    }

    @Test func http1() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzHTTP1") {
            guard let mode = bytes.first else { continue }
            let stream = Array(bytes.dropFirst())
            let choices = ["GET", "HEAD", "CONNECT", "POST"]
            let methods = (0..<Int(mode >> 1 & 7)).map { choices[(Int(mode >> 4) + $0) % choices.count] }
            let messages = HTTP1Message.parseAll(
                stream,
                isResponse: mode & 1 != 0,
                methods: methods,
                maxDecoded: 1 << 20
            )
            #expect(messages.count <= stream.count, "\(name)")
        }
    }
}
