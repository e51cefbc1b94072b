import APMInspectCore
import Foundation
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

/// Finds a fuzz target's replay inputs from this file's path: its fail cases, its committed seeds, and the files of
/// the named `Corpus/` folders with the given suffix (the seeds `Fuzz/smoke.sh` starts from).
private enum FuzzReplayInputs {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func load(_ target: String, corpus: KeyValuePairs<String, String> = [:]) throws -> [(String, [UInt8])] {
        var files: [URL] = []
        for folder in ["Fuzz/FailCases/\(target)", "Fuzz/Seeds/\(target)"] {
            let url = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            files += names.filter { !$0.hasSuffix(".md") && $0 != "open" }.map { url.appendingPathComponent($0) }
        }
        for (folder, suffix) in corpus {
            let url = root.appendingPathComponent("Corpus/\(folder)")
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
            files += names.filter { $0.hasSuffix(suffix) }.map { url.appendingPathComponent($0) }
        }
        let inputs = try files.sorted { $0.path < $1.path }.map {
            ($0.lastPathComponent, try [UInt8](Data(contentsOf: $0)))
        }
        #expect(!inputs.isEmpty, "no fail cases or seeds found for \(target)")
        return inputs
    }

    /// The encoder's output parses strictly and encodes to the same bytes again.
    static func expectEncodes(_ value: some Encodable, _ name: String) {
        guard let text = try? SortedJSONEncoder().encode(value) else {
            Issue.record("\(name): does not encode")
            return
        }
        let document = try? JSONDocument(bytes: Array(text.utf8), options: .strict)
        #expect(document != nil, "\(name): output is not strict JSON")
        if let document { #expect((try? SortedJSONEncoder().encode(document.root.materialized)) == text, "\(name)") }
    }
}
