import APMInspectCore
import PropertyBased
import Testing

@testable import HTTPCaptureParsing

/// The generated captures in Corpus/http, with the timings they were written with.
@Suite struct PacketCaptureTests {
    @Test func http1WithDNSGivesEveryPhase() throws {
        let capture = try Corpus.read("generated_http1_dns.pcap").capture
        #expect(capture.source == .pcap)
        let packets = try #require(capture.packets)
        #expect(packets.packets == 16)
        #expect(packets.retransmissions == 1)
        #expect(packets.interfaces.first?.linkTypeName == "ETHERNET")
        #expect(packets.dns.count == 2)
        let lookup = packets.dns[0]
        #expect(lookup.name == "api.example.com")
        #expect(lookup.responseMilliseconds == 25)
        #expect(lookup.answers == ["93.184.216.34"])
        #expect(packets.dns[1].rcode == "NXDOMAIN")
        #expect(packets.dns[1].failed)
        let connection = try #require(packets.connections.first)
        #expect(connection.synAckMilliseconds == 40)
        #expect(connection.connectMilliseconds == 41)
        #expect(connection.application == "http/1.x")
        #expect(connection.httpExchanges == 2)
        #expect(capture.transactions.count == 2)
        let items = capture.transactions[0]
        #expect(items.url == "http://api.example.com/v1/items?page=2")
        #expect(items.status == 200)
        #expect(items.durations.dns == 25)
        #expect(items.durations.connect == 41)
        #expect(items.phases.connectStart == 30)
        #expect(items.phases.requestStart == 72)
        #expect(items.durations.send == 1)
        #expect(items.durations.wait == 100)
        #expect(items.durations.receive == 7)
        #expect(items.durations.total == 180)
        #expect(items.startedDateTime == "2024-03-01T12:00:00.000Z")
        #expect(items.sizes.decoded == 29)
        #expect(items.sizes.responseBody > items.sizes.decoded)
        #expect(items.reusedConnection == false)
        #expect(HTTPTransaction.headerValue("Authorization", in: items.requestHeaders) == "[redacted]")
        let missing = capture.transactions[1]
        #expect(missing.status == 404)
        #expect(missing.reusedConnection == true)
        #expect(missing.durations.connect == -1)
        #expect(missing.durations.wait == 50)
        #expect(missing.sizes.decoded == 9)
        #expect(capture.summary.httpErrorRate == 0.5)
    }

    @Test func tls13OverIPv6InPcapng() throws {
        let capture = try Corpus.read("generated_tls13_ipv6.pcapng").capture
        #expect(capture.source == .pcapng)
        let packets = try #require(capture.packets)
        #expect(packets.ipv6 == 12)
        #expect(packets.interfaces.first?.timestampResolution == "ns")
        let tls = try #require(packets.connections.first?.tls)
        #expect(tls.serverName == "secure.example.com")
        #expect(tls.offeredVersions == ["TLS 1.3", "TLS 1.2"])
        #expect(tls.version == "TLS 1.3")
        #expect(tls.cipherSuite == "0x1301")
        #expect(tls.alpnOffered == ["h2", "http/1.1"])
        #expect(tls.serverHelloMilliseconds == 38)
        #expect(tls.handshakeMilliseconds == 40)
        let t = try #require(capture.transactions.first)
        #expect(t.host == "secure.example.com")
        #expect(t.provenance.encrypted)
        #expect(t.status == nil)
        #expect(t.outcome == .unknown)
        #expect(t.durations.connect == 21)
        #expect(t.durations.tls == 40)
        #expect(t.phases.secureConnectionStart == 22)
        #expect(t.phases.requestStart == 63)
        #expect(t.durations.wait == 57)
        #expect(t.durations.receive == 5)
        #expect(t.remoteAddress == "2001:db8::44")
    }

    @Test func tlsAlertIsANetworkError() throws {
        let capture = try Corpus.read("generated_tls_alert_sll2_be_ns.pcap").capture
        let packets = try #require(capture.packets)
        #expect(packets.byteOrders == ["big-endian"])
        #expect(packets.interfaces.first?.linkTypeName == "LINUX_SLL2")
        #expect(packets.interfaces.first?.timestampResolution == "ns")
        #expect(packets.resets == 1)
        let t = try #require(capture.transactions.first)
        #expect(t.outcome == .networkError)
        #expect(t.error == "TLS alert: fatal handshake_failure (40)")
        #expect(t.tls?.serverName == "legacy.example.net")
        #expect(t.durations.total == 18)
        #expect(t.durations.connect == 12.5)
        #expect(t.durations.tls == -1)
        #expect(capture.summary.networkErrorRate == 1)
    }

    @Test func rvictlRawIPAndInterimResponse() throws {
        let capture = try Corpus.read("generated_rvictl_rawip_100continue.pcap").capture
        let packets = try #require(capture.packets)
        #expect(packets.undecoded.isEmpty)
        #expect(packets.connections.first?.handshakeSeen == false)
        let t = try #require(capture.transactions.first)
        #expect(t.method == "POST")
        #expect(t.url == "http://upload.example.org:8080/upload")
        #expect(t.host == "upload.example.org")
        #expect(t.status == 201)
        #expect(t.durations.connect == -1)
        #expect(t.reusedConnection == nil)
        #expect(t.durations.send == 31)
        #expect(t.durations.wait == 64)
        #expect(t.sizes.requestBody == 16)
    }

    @Test func linkTypesDecodeToTheSameExchange() throws {
        var script = TCPScript(client: (GeneratedCaptures.clientV4, 40_000), server: (GeneratedCaptures.apiV4, 80))
        script.handshake(syn: 0, synAck: 10, ack: 11)
        script.send(12, fromClient: true, Array("GET / HTTP/1.0\r\nHost: h.example\r\n\r\n".utf8))
        script.send(40, fromClient: false, Array("HTTP/1.0 200 OK\r\n\r\nhello".utf8))
        let ipFrames = script.packets.map { packet -> [UInt8] in Array(packet.frame.dropFirst(14)) }
        let variants: [(UInt32, ([UInt8]) -> [UInt8])] = [
            (0, { PacketWriter.null($0) }),
            (101, { $0 }),
            (113, { [0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0x00] + $0 }),
            (276, { PacketWriter.sll2($0) }),
            (1, { PacketWriter.ethernet($0) }),
        ]
        for (linkType, wrap) in variants {
            let packets = zip(script.packets, ipFrames).map {
                PacketWriter.Packet(nanoseconds: $0.nanoseconds, frame: wrap($1))
            }
            for bigEndian in [false, true] {
                let bytes = PacketWriter.pcap(packets, linkType: linkType, bigEndian: bigEndian)
                let capture = try HTTPCaptureReader().read(bytes).capture
                let t = try #require(capture.transactions.first, "link type \(linkType)")
                #expect(t.status == 200)
                #expect(t.durations.connect == 11)
                #expect(t.durations.wait == 28)
                #expect(t.networkProtocol == "http/1.0")
                #expect(t.sizes.responseBody == 5)
            }
        }
    }

    @Test func pcapngSectionsWithDifferentByteOrdersAndResolutions() throws {
        let query = GeneratedCaptures.udpFrame(
            0,
            from: GeneratedCaptures.clientV4,
            5000,
            to: GeneratedCaptures.resolverV4,
            53,
            GeneratedCaptures.dnsQuery(id: 7, name: "a.example")
        )
        let answer = GeneratedCaptures.udpFrame(
            12.5,
            from: GeneratedCaptures.resolverV4,
            53,
            to: GeneratedCaptures.clientV4,
            5000,
            GeneratedCaptures.dnsAnswer(id: 7, name: "a.example", address: [192, 0, 2, 1])
        )
        var duplicate = answer
        duplicate.nanoseconds += 1_000_000
        let first = PacketWriter.pcapngSection(
            [query],
            interfaces: [PacketWriter.Interface(linkType: 1, resolution: 9)],
            bigEndian: false
        )
        var second = PacketWriter.pcapngSection(
            [answer, duplicate],
            interfaces: [PacketWriter.Interface(linkType: 1, resolution: 6)],
            bigEndian: true
        )
        // An unknown block type between packets is skipped by its length.
        second += PacketWriter.block(0x0000_0BAD, [1, 2, 3, 4, 5], bigEndian: true)
        let capture = try HTTPCaptureReader().read(first + second).capture
        let packets = try #require(capture.packets)
        #expect(packets.sections == 2)
        #expect(packets.byteOrders == ["little-endian", "big-endian"])
        #expect(packets.interfaces.map(\.timestampResolution) == ["ns", "µs"])
        #expect(packets.blocks["CB"] == 1)
        let lookup = try #require(packets.dns.first)
        #expect(lookup.responseMilliseconds == 12.5)
        #expect(lookup.duplicateResponses == 1)
        #expect(lookup.answers == ["192.0.2.1"])
    }

    @Test func quicGivesHandshakeAndResponseTimingOnly() throws {
        let client = GeneratedCaptures.clientV4
        let server: [UInt8] = [203, 0, 113, 50]
        func quic(_ ms: Double, fromClient: Bool, _ first: UInt8, size: Int) -> PacketWriter.Packet {
            var payload: [UInt8] = [first]
            if first & 0x80 != 0 { payload += [0, 0, 0, 1, 8] }
            payload += [UInt8](repeating: 0x33, count: size - payload.count)
            let (from, to, sport, dport) = fromClient ? (client, server, 55_000, 443) : (server, client, 443, 55_000)
            return GeneratedCaptures.udpFrame(ms, from: from, sport, to: to, dport, payload)
        }
        let packets = [
            GeneratedCaptures.udpFrame(
                0,
                from: client,
                53_100,
                to: GeneratedCaptures.resolverV4,
                53,
                GeneratedCaptures.dnsQuery(id: 9, name: "h3.example.com")
            ),
            GeneratedCaptures.udpFrame(
                8,
                from: GeneratedCaptures.resolverV4,
                53,
                to: client,
                53_100,
                GeneratedCaptures.dnsAnswer(id: 9, name: "h3.example.com", address: server)
            ),
            quic(10, fromClient: true, 0xC3, size: 1200),
            quic(40, fromClient: false, 0xC3, size: 1200),
            quic(41, fromClient: false, 0xE3, size: 900),
            quic(55, fromClient: true, 0x43, size: 300),
            quic(100, fromClient: false, 0x43, size: 1300),
            quic(105, fromClient: false, 0x43, size: 700),
        ]
        let capture = try HTTPCaptureReader().read(PacketWriter.pcap(packets, linkType: 1)).capture
        let connection = try #require(capture.packets?.connections.first { $0.application == "quic" })
        #expect(connection.tls?.version == "QUIC v1")
        #expect(connection.tls?.serverHelloMilliseconds == 30)
        #expect(connection.tls?.handshakeMilliseconds == 45)
        let t = try #require(capture.transactions.first)
        #expect(t.networkProtocol == "h3")
        #expect(t.provenance.encrypted)
        #expect(t.host == "h3.example.com")
        #expect(t.durations.dns == 8)
        #expect(t.phases.secureConnectionStart == 10)
        #expect(t.durations.tls == 45)
        #expect(t.durations.wait == 45)
        #expect(t.durations.receive == 5)
        #expect(t.durations.total == 105)
        #expect(t.durations.connect == -1)
        #expect(t.outcome == .unknown)
    }

    @Test func tlsInsideAConnectTunnel() throws {
        var tcp = TCPScript(client: (GeneratedCaptures.clientV4, 47_000), server: ([192, 0, 2, 8], 8888))
        tcp.handshake(syn: 0, synAck: 1, ack: 1.2)
        tcp.send(2, fromClient: true, Array("CONNECT bank.example:443 HTTP/1.1\r\nHost: bank.example:443\r\n\r\n".utf8))
        tcp.send(60, fromClient: false, Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8))
        tcp.send(
            61,
            fromClient: true,
            GeneratedCaptures.clientHello(serverName: "bank.example", alpn: ["h2"], versions: [0x0303])
        )
        tcp.send(
            90,
            fromClient: false,
            GeneratedCaptures.serverHello(version: 0x0303, cipher: 0xC02F, alpn: "h2")
                + GeneratedCaptures.record(22, 2000)
        )
        tcp.send(92, fromClient: true, GeneratedCaptures.record(22, 70) + GeneratedCaptures.record(20, 1))
        tcp.send(93, fromClient: true, GeneratedCaptures.record(22, 40))
        tcp.send(120, fromClient: false, GeneratedCaptures.record(20, 1) + GeneratedCaptures.record(22, 40))
        tcp.send(121, fromClient: true, GeneratedCaptures.record(23, 200))
        tcp.send(170, fromClient: false, GeneratedCaptures.record(23, 900))
        let capture = try HTTPCaptureReader().read(PacketWriter.pcap(tcp.packets, linkType: 1)).capture
        #expect(capture.transactions.count == 2)
        let connect = try #require(capture.transactions.first { $0.method == "CONNECT" })
        #expect(connect.status == 200)
        #expect(connect.proxyConnection == true)
        #expect(connect.url == "bank.example:443")  // authority form as written (issue 42)
        #expect(connect.host == "bank.example")
        let tunnel = try #require(capture.transactions.first { $0.provenance.encrypted })
        #expect(tunnel.host == "bank.example")
        #expect(tunnel.proxyConnection == true)
        #expect(tunnel.reusedConnection == true)
        #expect(tunnel.networkProtocol == "h2")
        #expect(tunnel.tls?.version == "TLS 1.2")
        #expect(tunnel.durations.tls == 59)
        #expect(tunnel.durations.connect == -1)
        #expect(tunnel.durations.wait == 49)
    }

    @Test func truncatedCaptureKeepsWhatWasRead() throws {
        let full = try Corpus.bytes("generated_http1_dns.pcap")
        let result = try HTTPCaptureReader().read(Array(full.prefix(full.count - 30)))
        #expect(result.diagnostics.contains { $0.code == .pcapTruncatedRecord })
        #expect(result.capture.packets?.packets == 16)
        #expect(result.capture.transactions.count == 2)
    }

    @Test func headerOnlyAndBadMagic() throws {
        #expect(throws: HTTPCaptureError.self) { try HTTPCaptureReader().read([0xD4, 0xC3, 0xB2, 0xA1, 2, 0]) }
        let empty = try HTTPCaptureReader().read(PacketWriter.pcap([], linkType: 1)).capture
        #expect(empty.transactions.isEmpty)
        #expect(empty.packets?.packets == 0)
    }

    @Test func ipv6AddressText() {
        #expect(IPAddress(v6: 0x2001_0DB8_0000_0000, 0x0000_0000_0000_0001).text == "2001:db8::1")
        #expect(IPAddress(v6: 0, 1).text == "::1")
        #expect(IPAddress(v6: 0xFE80_0000_0000_0000, 0x0202_B3FF_FE1E_8329).text == "fe80::202:b3ff:fe1e:8329")
        #expect(IPAddress(v4: 0xC000_0201).text == "192.0.2.1")
    }

    /// Random bytes, and real captures cut and corrupted anywhere, never trap the pcap and pcapng readers.
    @Test func arbitraryBytesNeverTrap() async throws {
        let seeds = try GeneratedCaptures.all.map(\.1)
        await propertyCheck(
            count: 400,
            input: Gen.int(in: 0...(seeds.count - 1)),
            Gen.int(in: 0...4096),
            Gen.int(in: 0...4096),
            Gen.uint8().array(of: 0...64)
        ) { which, cut, at, noise in
            var bytes = Array(seeds[which].prefix(cut))
            for (i, byte) in noise.enumerated() where at + i < bytes.count { bytes[at + i] = byte }
            _ = try? HTTPCaptureReader().read(bytes)
            _ = try? HTTPCaptureReader().read([0x0A, 0x0D, 0x0D, 0x0A] + noise)
            _ = try? HTTPCaptureReader().read([0xD4, 0xC3, 0xB2, 0xA1] + noise)
        }
    }
}
