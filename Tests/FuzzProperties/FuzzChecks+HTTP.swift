import APMInspectCore
import ByteAccess

// The stream decoders (DNS, TLS, HTTP/1) are internal to HTTPCaptureParsing: see FuzzChecks.swift on `@testable`.
#if DEBUG || FUZZ_TESTABLE
    @testable import HTTPCaptureParsing
#else
    import HTTPCaptureParsing
#endif

extension FuzzChecks {
    /// `FuzzHAR`: reads of one lenient document are deterministic and print as strict JSON.
    public static func har(_ bytes: [UInt8]) -> FuzzFindings {
        guard let document = try? JSONDocument(bytes: bytes) else { return FuzzFindings() }
        return readsAlike("document") { try HARReader().read(document) }
    }

    /// `FuzzCharlesJSON`: Charles JSON sessions (.chlsj), read from a lenient JSON document as the command does.
    public static func charlesJSON(_ bytes: [UInt8]) -> FuzzFindings {
        guard let document = try? JSONDocument(bytes: bytes) else { return FuzzFindings() }
        return readsAlike("document") { try CharlesJSONReader().read(document) }
    }

    /// `FuzzCharlesXML`: Charles XML sessions (.chlsx), read twice alike and printed as strict JSON.
    public static func charlesXML(_ bytes: [UInt8]) -> FuzzFindings {
        readsAlike("bytes") { try CharlesXMLReader().read(bytes) }
    }

    /// A capture reader's result: the same on a second read of the same input, and capture and diagnostics print as
    /// strict JSON.
    static func readsAlike<Capture: Equatable & Encodable>(
        _ input: String,
        _ read: () throws -> (Capture, [Diagnostic])
    ) -> FuzzFindings {
        var found = FuzzFindings()
        let first = try? read()
        let second = try? read()
        found.require(first?.0 == second?.0 && first?.1 == second?.1, "two reads of the same \(input) differ")
        if let first {
            found.requireEncodes(first.0, "the capture")
            found.requireEncodes(first.1, "the diagnostics")
        }
        return found
    }
}

#if DEBUG || FUZZ_TESTABLE
    extension FuzzChecks {
        /// `FuzzPacketCapture`: pcap and pcapng, with TCP reassembly and the stream decoders, analysed twice alike.
        public static func packetCapture(_ bytes: [UInt8]) -> FuzzFindings {
            readsAlike("bytes") { try PacketCaptureAnalyzer(options: HTTPCaptureOptions()).analyze(bytes) }
        }

        /// `FuzzDNS`: one DNS message decodes alike twice, within its answer limit and with names the message can
        /// spell.
        public static func dns(_ bytes: [UInt8]) -> FuzzFindings {
            bytes.withUnsafeBytes { dns($0) }
        }

        /// The same on bytes in place.
        public static func dns(_ buffer: UnsafeRawBufferPointer) -> FuzzFindings {
            var found = FuzzFindings()
            let first = DNSMessage(ByteView(BorrowedBytes(unsafeBytes: buffer)))
            let second = DNSMessage(ByteView(BorrowedBytes(unsafeBytes: buffer)))
            found.require(
                first?.id == second?.id && first?.name == second?.name && first?.answers == second?.answers,
                "two decodes of the same message differ"
            )
            if let first {
                found.require(first.answers.count <= 64, "more answers kept than the limit of 64")
                found.require(
                    first.name.utf8.count <= buffer.count * 4 + 255,
                    "a name longer than the message can spell"
                )
            }
            return found
        }

        /// `FuzzTLS`: the TLS scanner on a client and a server stream (the first two bytes say where the client
        /// stream ends) scans alike twice and prints as strict JSON.
        public static func tls(_ bytes: [UInt8]) -> FuzzFindings {
            var found = FuzzFindings()
            guard bytes.count >= 2 else { return found }
            let rest = Array(bytes[2...])
            let split = min(rest.count, Int(bytes[0]) << 8 | Int(bytes[1]))
            var client = TCPStream()
            client.bytes = Array(rest[..<split])
            client.marks = [TCPStream.Mark(offset: 0, time: 1_000)]
            var server = TCPStream()
            server.bytes = Array(rest[split...])
            server.marks = [
                TCPStream.Mark(offset: 0, time: 2_000), TCPStream.Mark(offset: server.bytes.count / 2, time: 3_000),
            ]
            let first = TLSScanner(client: client, server: server)
            let second = TLSScanner(client: client, server: server)
            found.require(first.handshake == second.handshake, "two scans of the same streams differ")
            found.requireEncodes(first.handshake, "the TLS handshake")
            return found
        }

        /// `FuzzHTTP1`: HTTP/1 messages on one stream (the first byte chooses the side and the request methods to
        /// pair) parse alike twice, never more messages than bytes.
        public static func http1(_ bytes: [UInt8]) -> FuzzFindings {
            var found = FuzzFindings()
            guard let mode = bytes.first else { return found }
            let stream = Array(bytes.dropFirst())
            let isResponse = mode & 1 != 0
            let choices = ["GET", "HEAD", "CONNECT", "POST"]
            let methods = (0..<Int(mode >> 1 & 7)).map { choices[(Int(mode >> 4) + $0) % choices.count] }
            _ = HTTP1Message.looksLikeRequest(stream)
            let first = HTTP1Message.parseAll(stream, isResponse: isResponse, methods: methods, maxDecoded: 1 << 20)
            let second = HTTP1Message.parseAll(stream, isResponse: isResponse, methods: methods, maxDecoded: 1 << 20)
            found.require(first.count == second.count, "two parses of the same stream differ")
            found.require(first.count <= stream.count, "more messages than bytes")
            return found
        }
    }
#endif
