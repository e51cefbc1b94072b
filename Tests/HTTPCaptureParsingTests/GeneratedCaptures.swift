import APMInspectCore

/// The project's own captures in Corpus/http, built by ``PacketWriter`` with known timings (README there).
enum GeneratedCaptures {
    static let clientV4: [UInt8] = [10, 0, 0, 2]
    static let resolverV4: [UInt8] = [10, 0, 0, 1]
    static let apiV4: [UInt8] = [93, 184, 216, 34]
    static let clientV6: [UInt8] = [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02]
    static let serverV6: [UInt8] = [0x20, 0x01, 0x0D, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x44]

    /// Every generated file by its name in Corpus/http.
    static var all: [(String, [UInt8])] {
        [
            ("generated_http1_dns.pcap", http1WithDNS()),
            ("generated_tls13_ipv6.pcapng", tls13IPv6()),
            ("generated_tls_alert_sll2_be_ns.pcap", tlsAlert()),
            ("generated_rvictl_rawip_100continue.pcap", rvictl100Continue()),
            ("generated_http10_bare-lf_ipv6_no-host.pcap", http10BareLineFeedIPv6()),
            ("generated_http1_keepalive_holes.pcap", keepAliveWithHoles()),
            ("generated_connect_tls_tunnel.pcap", connectTunnel()),
        ]
    }

    static func dnsName(_ name: String) -> [UInt8] {
        var out: [UInt8] = []
        for label in name.split(separator: ".") { out += [UInt8(label.utf8.count)] + Array(label.utf8) }
        return out + [0]
    }

    static func dnsQuery(id: Int, name: String, type: Int = 1) -> [UInt8] {
        PacketWriter.be16(id) + [0x01, 0x00] + PacketWriter.be16(1) + [0, 0, 0, 0, 0, 0] + dnsName(name)
            + PacketWriter.be16(type) + PacketWriter.be16(1)
    }

    static func dnsAnswer(id: Int, name: String, address: [UInt8], rcode: UInt8 = 0) -> [UInt8] {
        var out = PacketWriter.be16(id) + [0x81, 0x80 | rcode] + PacketWriter.be16(1)
        out += PacketWriter.be16(address.isEmpty ? 0 : 1) + [0, 0, 0, 0]
        out += dnsName(name) + PacketWriter.be16(address.count == 16 ? 28 : 1) + PacketWriter.be16(1)
        if !address.isEmpty {
            out += [0xC0, 0x0C] + PacketWriter.be16(address.count == 16 ? 28 : 1) + PacketWriter.be16(1)
            out += PacketWriter.be32(300) + PacketWriter.be16(address.count) + address
        }
        return out
    }

    static func udpFrame(_ ms: Double, from: [UInt8], _ sport: Int, to: [UInt8], _ dport: Int, _ payload: [UInt8])
        -> PacketWriter.Packet
    {
        let ip = PacketWriter.ipv4(from, to, protocolNumber: 17, PacketWriter.udp(sport, dport, payload))
        return PacketWriter.Packet(
            nanoseconds: TCPScript.base + Int64(ms * 1_000_000),
            frame: PacketWriter.ethernet(ip)
        )
    }

    /// `{"items":[1,2,3],"next":null}` gzip-compressed (29 bytes decoded).
    static let gzipBody: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xAB, 0x56, 0xCA, 0x2C, 0x49, 0xCD, 0x2D, 0x56,
        0xB2, 0x8A, 0x36, 0xD4, 0x31, 0xD2, 0x31, 0x8E, 0xD5, 0x51, 0xCA, 0x4B, 0xAD, 0x28, 0x51, 0xB2, 0xCA, 0x2B,
        0xCD, 0xC9, 0xA9, 0x05, 0x00, 0x2D, 0x7F, 0xC1, 0xE8, 0x1D, 0x00, 0x00, 0x00,
    ]

    /// DNS 25 ms, connect 41 ms (SYN/ACK 40 ms), a request in two segments, a chunked gzip 200 with a
    /// retransmitted segment, then a keep-alive 404; then FIN.
    static func http1WithDNS() -> [UInt8] {
        var packets: [PacketWriter.Packet] = []
        packets.append(
            udpFrame(0, from: clientV4, 53_000, to: resolverV4, 53, dnsQuery(id: 0x1234, name: "api.example.com"))
        )
        packets.append(
            udpFrame(
                25,
                from: resolverV4,
                53,
                to: clientV4,
                53_000,
                dnsAnswer(id: 0x1234, name: "api.example.com", address: apiV4)
            )
        )
        packets.append(
            udpFrame(26, from: clientV4, 53_001, to: resolverV4, 53, dnsQuery(id: 0x2222, name: "missing.example.com"))
        )
        packets.append(
            udpFrame(
                36,
                from: resolverV4,
                53,
                to: clientV4,
                53_001,
                dnsAnswer(id: 0x2222, name: "missing.example.com", address: [], rcode: 3)
            )
        )
        var tcp = TCPScript(client: (clientV4, 50_000), server: (apiV4, 80))
        tcp.handshake(syn: 30, synAck: 70, ack: 71)
        tcp.send(72, fromClient: true, Array("GET /v1/items?page=2 HTTP/1.1\r\nHost: api.example.com\r\n".utf8))
        tcp.send(73, fromClient: true, Array("Accept: application/json\r\nAuthorization: Bearer secret\r\n\r\n".utf8))
        let body = gzipBody
        var first = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n".utf8)
        first += Array("Transfer-Encoding: chunked\r\n\r\n".utf8)
        first += Array(String(body.count, radix: 16).utf8) + [0x0D, 0x0A] + body.prefix(10)
        let rest = Array(body.dropFirst(10)) + Array("\r\n0\r\n\r\n".utf8)
        tcp.send(173, fromClient: false, first)
        tcp.send(180, fromClient: false, rest)
        tcp.resend(181, fromClient: false, rest, endingAt: tcp.serverSeq)
        tcp.send(200, fromClient: true, Array("GET /v1/missing HTTP/1.1\r\nHost: api.example.com\r\n\r\n".utf8))
        tcp.send(
            250,
            fromClient: false,
            Array("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 9\r\n\r\nnot found".utf8)
        )
        tcp.fin(300, fromClient: true)
        tcp.fin(301, fromClient: false)
        packets += tcp.packets
        return PacketWriter.pcap(packets.sorted { $0.nanoseconds < $1.nanoseconds }, linkType: 1)
    }

    static func clientHello(serverName: String, alpn: [String], versions: [Int]) -> [UInt8] {
        var extensions: [UInt8] = []
        let name = Array(serverName.utf8)
        let sni = [0] + PacketWriter.be16(name.count) + name
        extensions += PacketWriter.be16(0) + PacketWriter.be16(sni.count + 2) + PacketWriter.be16(sni.count) + sni
        var protocols: [UInt8] = []
        for entry in alpn { protocols += [UInt8(entry.utf8.count)] + Array(entry.utf8) }
        extensions +=
            PacketWriter.be16(16) + PacketWriter.be16(protocols.count + 2) + PacketWriter.be16(protocols.count)
            + protocols
        var list: [UInt8] = []
        for version in versions { list += PacketWriter.be16(version) }
        extensions += PacketWriter.be16(43) + PacketWriter.be16(list.count + 1) + [UInt8(list.count)] + list
        var body: [UInt8] = [0x03, 0x03] + [UInt8](repeating: 0xAB, count: 32) + [0]
        body += PacketWriter.be16(4) + [0x13, 0x01, 0xC0, 0x2F] + [1, 0]
        body += PacketWriter.be16(extensions.count) + extensions
        let message: [UInt8] = [1] + Array(PacketWriter.be32(UInt32(body.count)).dropFirst()) + body
        return [0x16, 0x03, 0x01] + PacketWriter.be16(message.count) + message
    }

    static func serverHello(version: Int, cipher: Int, alpn: String?) -> [UInt8] {
        var extensions: [UInt8] = []
        if version == 0x0304 { extensions += PacketWriter.be16(43) + PacketWriter.be16(2) + PacketWriter.be16(0x0304) }
        if let alpn {
            let name = Array(alpn.utf8)
            let list = [UInt8(name.count)] + name
            extensions +=
                PacketWriter.be16(16) + PacketWriter.be16(list.count + 2) + PacketWriter.be16(list.count) + list
        }
        var body: [UInt8] = [0x03, 0x03] + [UInt8](repeating: 0xCD, count: 32) + [0] + PacketWriter.be16(cipher) + [0]
        body += PacketWriter.be16(extensions.count) + extensions
        let message: [UInt8] = [2] + Array(PacketWriter.be32(UInt32(body.count)).dropFirst()) + body
        return [0x16, 0x03, 0x03] + PacketWriter.be16(message.count) + message
    }

    static func record(_ type: UInt8, _ length: Int) -> [UInt8] {
        [type, 0x03, 0x03] + PacketWriter.be16(length) + [UInt8](repeating: 0x5A, count: length)
    }

    /// TLS 1.3 over IPv6 in pcapng (ns resolution): connect 21 ms, ClientHello at 22 ms split over two segments,
    /// ServerHello at 60 ms, client Finished at 62 ms (handshake 40 ms), request at 63 ms, response 120–125 ms.
    static func tls13IPv6() -> [UInt8] {
        var tcp = TCPScript(client: (clientV6, 51_000), server: (serverV6, 443), v6: true)
        tcp.handshake(syn: 0, synAck: 20, ack: 21)
        let hello = clientHello(
            serverName: "secure.example.com",
            alpn: ["h2", "http/1.1"],
            versions: [0x0A0A, 0x0304, 0x0303]
        )
        tcp.send(22, fromClient: true, Array(hello.prefix(40)))
        tcp.send(22.5, fromClient: true, Array(hello.dropFirst(40)))
        tcp.send(
            60,
            fromClient: false,
            serverHello(version: 0x0304, cipher: 0x1301, alpn: nil) + record(20, 1) + record(23, 900)
        )
        tcp.send(62, fromClient: true, record(20, 1) + record(23, 53))
        tcp.send(63, fromClient: true, record(23, 300))
        tcp.send(120, fromClient: false, record(23, 1200))
        tcp.send(125, fromClient: false, record(23, 4000))
        tcp.fin(140, fromClient: true)
        tcp.fin(141, fromClient: false)
        return PacketWriter.pcapngSection(tcp.packets, interfaces: [PacketWriter.Interface(linkType: 1, resolution: 9)])
    }

    /// A ClientHello answered by a fatal handshake_failure alert after 5 ms, on Linux SLL2, big-endian ns pcap.
    static func tlsAlert() -> [UInt8] {
        var tcp = TCPScript(client: (clientV4, 52_000), server: ([203, 0, 113, 7], 443))
        tcp.frame = { ip, v6 in PacketWriter.sll2(ip, v6: v6) }
        tcp.handshake(syn: 0, synAck: 12, ack: 12.5)
        tcp.send(
            13,
            fromClient: true,
            clientHello(serverName: "legacy.example.net", alpn: ["http/1.1"], versions: [0x0303])
        )
        tcp.send(18, fromClient: false, [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 40])
        tcp.reset(18.5, fromClient: false)
        return PacketWriter.pcap(tcp.packets, linkType: 276, nanoseconds: true, bigEndian: true)
    }

    /// An iOS rvictl-style capture: labelled Ethernet, frames hold bare IPv4.
    ///
    /// A POST with Expect: 100-continue: the 100 arrives before the body, then a 201. No SYN was captured, so the
    /// connect phase is unknown.
    static func rvictl100Continue() -> [UInt8] {
        var tcp = TCPScript(client: (clientV4, 49_152), server: ([198, 51, 100, 20], 8080))
        tcp.frame = { ip, _ in ip }
        tcp.clientSeq = 7_000
        tcp.serverSeq = 9_000
        tcp.send(
            0,
            fromClient: true,
            Array(
                "POST /upload HTTP/1.1\r\nHost: upload.example.org:8080\r\nContent-Type: application/json\r\nContent-Length: 16\r\nExpect: 100-continue\r\n\r\n"
                    .utf8
            )
        )
        tcp.send(30, fromClient: false, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        tcp.send(31, fromClient: true, Array("{\"photo\":\"abc\"}\n".utf8))
        tcp.send(
            95,
            fromClient: false,
            Array("HTTP/1.1 201 Created\r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n{}".utf8)
        )
        return PacketWriter.pcap(tcp.packets, linkType: 1)
    }

    /// Issue 20: an HTTP/1.0 client on IPv6 writing bare line feeds and no Host header (a health probe), to a
    /// server on port 9200 that answers with bare line feeds too; then a second exchange on a new connection.
    static func http10BareLineFeedIPv6() -> [UInt8] {
        var first = TCPScript(client: (clientV6, 50_010), server: (serverV6, 9200), v6: true)
        first.handshake(syn: 0, synAck: 2, ack: 3)
        first.send(4, fromClient: true, Array("GET /_cluster/health HTTP/1.0\nAccept: */*\n\n".utf8))
        first.send(
            16,
            fromClient: false,
            Array("HTTP/1.0 200 OK\nContent-Type: application/json\nContent-Length: 15\n\n{\"status\":\"ok\"}".utf8)
        )
        var second = TCPScript(client: (clientV6, 50_012), server: (serverV6, 9200), v6: true)
        second.handshake(syn: 40, synAck: 41, ack: 42)
        second.send(43, fromClient: true, Array("HEAD / HTTP/1.0\n\n".utf8))
        second.send(47, fromClient: false, Array("HTTP/1.0 503 Service Unavailable\nContent-Length: 120\n\n".utf8))
        return PacketWriter.pcap(first.packets + second.packets, linkType: 1)
    }

    /// Issue 20: five requests on one keep-alive connection whose server side has three holes (segments the capture
    /// missed).
    ///
    /// `/a`: a Content-Length 3000 body whose middle 1000 bytes are lost. `/b`: a chunked body (one 3000-byte chunk)
    /// whose middle 1500 bytes are lost. `/c`: whole (wait 30, receive 0). `/d`: the segment with its status line
    /// and first headers is lost, so its framing is unknown. `/e`: a 404 right after `/d`'s body (wait 30).
    static func keepAliveWithHoles() -> [UInt8] {
        var tcp = TCPScript(client: (clientV4, 50_100), server: (apiV4, 80))
        tcp.handshake(syn: 0, synAck: 10, ack: 11)
        func get(_ path: String) -> [UInt8] { Array("GET \(path) HTTP/1.1\r\nHost: api.example.com\r\n\r\n".utf8) }
        let filler = { (byte: UInt8, count: Int) in [UInt8](repeating: byte, count: count) }
        tcp.send(12, fromClient: true, get("/a"))
        tcp.send(
            40,
            fromClient: false,
            Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3000\r\n\r\n".utf8)
                + filler(0x61, 1000)
        )
        tcp.lose(fromClient: false, filler(0x61, 1000))
        tcp.send(42, fromClient: false, filler(0x61, 1000))
        tcp.send(50, fromClient: true, get("/b"))
        tcp.send(
            80,
            fromClient: false,
            Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nbb8\r\n".utf8)
                + filler(0x62, 500)
        )
        tcp.lose(fromClient: false, filler(0x62, 1500))
        tcp.send(82, fromClient: false, filler(0x62, 1000) + Array("\r\n0\r\n\r\n".utf8))
        tcp.send(90, fromClient: true, get("/c"))
        tcp.send(120, fromClient: false, Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".utf8))
        tcp.send(130, fromClient: true, get("/d"))
        tcp.lose(fromClient: false, Array("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n".utf8))
        tcp.send(161, fromClient: false, Array("Content-Length: 20\r\n\r\n".utf8) + filler(0x64, 20))
        tcp.send(170, fromClient: true, get("/e"))
        tcp.send(
            200,
            fromClient: false,
            Array("HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found".utf8)
        )
        tcp.fin(210, fromClient: true)
        tcp.fin(211, fromClient: false)
        return PacketWriter.pcap(tcp.packets, linkType: 1)
    }

    /// Issue 20: a client CONNECTs through a proxy (10.0.0.9:3128) to secure.example.com:8443, then runs TLS 1.3
    /// inside the tunnel: ClientHello at 51, ServerHello at 90, client Finished at 92 (TLS 41), request at 93,
    /// response 150–155.
    static func connectTunnel() -> [UInt8] {
        var tcp = TCPScript(client: (clientV4, 50_200), server: ([10, 0, 0, 9], 3128))
        tcp.handshake(syn: 0, synAck: 5, ack: 6)
        tcp.send(
            7,
            fromClient: true,
            Array("CONNECT secure.example.com:8443 HTTP/1.1\r\nHost: secure.example.com:8443\r\n\r\n".utf8)
        )
        tcp.send(50, fromClient: false, Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8))
        tcp.send(
            51,
            fromClient: true,
            clientHello(serverName: "secure.example.com", alpn: ["h2"], versions: [0x0304])
        )
        tcp.send(90, fromClient: false, serverHello(version: 0x0304, cipher: 0x1301, alpn: nil) + record(23, 900))
        tcp.send(92, fromClient: true, record(20, 1) + record(23, 53))
        tcp.send(93, fromClient: true, record(23, 300))
        tcp.send(150, fromClient: false, record(23, 1200))
        tcp.send(155, fromClient: false, record(23, 4000))
        tcp.fin(160, fromClient: true)
        tcp.fin(161, fromClient: false)
        return PacketWriter.pcap(tcp.packets, linkType: 1)
    }
}
