import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

/// Issue 20: a TCP stream with holes (segments the capture missed) and TLS inside a CONNECT tunnel.
@Suite struct CaptureHoleTests {
    @Test func requestsAfterAHolePairWithTheirResponses() throws {
        let result = try Corpus.read("generated_http1_keepalive_holes.pcap")
        let capture = result.capture
        let connection = try #require(capture.packets?.connections.first)
        #expect(connection.missingBytes == 1000 + 1500 + 43)
        #expect(connection.httpExchanges == 5)
        let byPath = Dictionary(
            uniqueKeysWithValues: capture.transactions.map {
                (String($0.url.dropFirst("http://api.example.com".count)), $0)
            }
        )
        // Content-Length framing crosses the hole: the cut response keeps its status and its length.
        let a = try #require(byPath["/a"])
        #expect(a.status == 200)
        #expect(a.outcome == .success)
        #expect(a.durations.wait == 28)
        #expect(a.durations.receive == 2)
        #expect(a.sizes.responseBody == 3000)
        #expect(a.sizes.decoded == -1)
        // Chunked framing crosses the hole.
        let b = try #require(byPath["/b"])
        #expect(b.status == 200)
        #expect(b.durations.wait == 30)
        #expect(b.durations.receive == 2)
        // The exchange after both holes is whole.
        let c = try #require(byPath["/c"])
        #expect(c.status == 200)
        #expect(c.durations.wait == 30)
        #expect(c.durations.receive == 0)
        #expect(c.sizes.decoded == 5)
        // The hole took /d's status line: no response for it, and /e still gets its own.
        let d = try #require(byPath["/d"])
        #expect(d.status == nil)
        #expect(d.outcome == .unknown)
        let e = try #require(byPath["/e"])
        #expect(e.status == 404)
        #expect(e.durations.wait == 30)
        #expect(e.phases.responseStart == 30)
        #expect(result.diagnostics.contains { $0.code == .pcapCaptureHoleSkip })
        #expect(result.diagnostics.contains { $0.code == .pcapIncompleteResponse })
    }

    @Test func tlsInsideAConnectTunnelIsTheTargets() throws {
        let capture = try Corpus.read("generated_connect_tls_tunnel.pcap").capture
        #expect(capture.transactions.count == 2)
        let connect = try #require(capture.transactions.first { $0.method == "CONNECT" })
        #expect(connect.status == 200)
        #expect(connect.url == "secure.example.com:8443")
        #expect(connect.host == "secure.example.com")
        let tunnel = try #require(capture.transactions.first { $0.provenance.encrypted })
        #expect(tunnel.host == "secure.example.com")
        #expect(tunnel.url == "https://secure.example.com:8443/")
        #expect(tunnel.proxyConnection == true)
        #expect(tunnel.remoteAddress == "10.0.0.9")
        #expect(tunnel.remotePort == 3128)
        #expect(tunnel.tls?.version == "TLS 1.3")
        #expect(tunnel.durations.tls == 41)
        #expect(tunnel.durations.wait == 57)
        let connection = try #require(capture.packets?.connections.first)
        #expect(connection.server == "10.0.0.9:3128")
        #expect(connection.tls?.serverName == "secure.example.com")
        #expect(connection.tls?.handshakeMilliseconds == 41)
    }

    @Test(arguments: [
        ("secure.example.com:8443", "", "secure.example.com", 8443),
        ("[2001:db8::1]:9443", "", "2001:db8::1", 9443),
        ("", "API.example.com:444", "api.example.com", 444),
        ("example.org", "", "example.org", 443),
        ("example.org:99999", "", "example.org", 443),
    ])
    func tunnelTargetFromTheConnectLine(authority: String, host: String, expectedHost: String, port: Int) {
        #expect(TunnelTarget(authority: authority, hostHeader: host) == TunnelTarget(host: expectedHost, port: port))
    }

    /// A hole in a stream of 20,000 bodies with no start line anywhere after it: the resynchronising search is one
    /// pass, and nothing is invented.
    @Test func resynchronisingIsBoundedAndInventsNothing() {
        var bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nabcd".utf8)
        let hole = bytes.count
        bytes += [UInt8](repeating: 0x48, count: 2_000_000)  // 'H', never `HTTP/1.`
        let messages = HTTP1Message.parseAll(
            bytes,
            isResponse: true,
            gaps: [TCPStream.Gap(at: hole, length: 100)],
            maxDecoded: 1 << 20
        )
        #expect(messages.count == 1)
        #expect(messages.first?.status == 200)
    }

    @Test func holeInsideAHeaderBlockKeepsTheStatusLine() {
        let before = Array("HTTP/1.1 503 Service Unavailable\r\nContent-Ty".utf8)
        let after = Array("pe: text/plain\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
        let messages = HTTP1Message.parseAll(
            before + after,
            isResponse: true,
            gaps: [TCPStream.Gap(at: before.count, length: 7)],
            maxDecoded: 1 << 20
        )
        #expect(messages.map(\.status) == [503, 200])
        #expect(messages.first?.complete == false)
        #expect(messages.last?.afterHole == true)
        #expect(messages.last?.complete == true)
    }

    /// The request side has the hole (`/2` never captured, its response was): `/3` must not get `/2`'s response.
    @Test func responseToALostRequestIsNotGivenToTheNextOne() throws {
        var tcp = TCPScript(client: (GeneratedCaptures.clientV4, 50_300), server: (GeneratedCaptures.apiV4, 80))
        tcp.handshake(syn: 0, synAck: 1, ack: 2)
        func get(_ path: String) -> [UInt8] { Array("GET \(path) HTTP/1.1\r\nHost: api.example.com\r\n\r\n".utf8) }
        func ok(_ body: String) -> [UInt8] {
            Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
        }
        tcp.send(10, fromClient: true, get("/1"))
        tcp.send(20, fromClient: false, ok("one"))
        tcp.lose(fromClient: true, get("/2"))
        tcp.send(40, fromClient: false, ok("two!"))
        tcp.send(50, fromClient: true, get("/3"))
        tcp.send(65, fromClient: false, ok("three"))
        let capture = try HTTPCaptureReader().read(PacketWriter.pcap(tcp.packets, linkType: 1)).capture
        #expect(capture.transactions.map(\.url) == ["http://api.example.com/1", "http://api.example.com/3"])
        #expect(capture.transactions.map(\.sizes.decoded) == [3, 5])
        #expect(capture.transactions.last?.durations.wait == 15)
    }

    /// Without Content-Length a body runs to the close; a status line after a hole in it shows the server went on.
    @Test func closeDelimitedBodyWithAHoleResynchronises() {
        let before = Array("HTTP/1.0 200 OK\r\n\r\nsome body".utf8)
        let after = Array(" more body\r\nHTTP/1.1 204 No Content\r\n\r\n".utf8)
        let messages = HTTP1Message.parseAll(
            before + after,
            isResponse: true,
            gaps: [TCPStream.Gap(at: before.count, length: 50)],
            maxDecoded: 1 << 20
        )
        #expect(messages.map(\.status) == [200, 204])
        #expect(messages.first?.complete == false)
        #expect(messages.first?.missingBytes == 50)
        #expect(messages.last?.skippedBefore == " more body\r\n".utf8.count)
    }

    /// A hole that takes a chunk-size line leaves the framing unknown: the parse resumes at the next status line.
    @Test func holeInAChunkSizeLineResynchronises() {
        let before = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n".utf8)
        let after = Array("\r\nxyz\r\n0\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\n".utf8)
        let messages = HTTP1Message.parseAll(
            before + after,
            isResponse: true,
            gaps: [TCPStream.Gap(at: before.count, length: 1)],
            maxDecoded: 1 << 20
        )
        #expect(messages.map(\.status) == [200, 304])
        #expect(messages.first?.complete == false)
        #expect(messages.last?.afterHole == true)
    }

    /// A request body that crosses a hole ends where its Content-Length says; the next request follows it.
    @Test func requestBodyAcrossAHoleKeepsTheNextRequest() {
        let before = Array("POST /up HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123".utf8)
        let after = Array("89GET /next HTTP/1.1\r\n\r\n".utf8)
        let messages = HTTP1Message.parseAll(
            before + after,
            isResponse: false,
            gaps: [TCPStream.Gap(at: before.count, length: 4)],
            maxDecoded: 1 << 20
        )
        #expect(messages.map(\.method) == ["POST", "GET"])
        #expect(messages.first?.bodyBytes == 10)
        #expect(messages.first?.missingBytes == 4)
        #expect(messages.last?.afterHole == false)
        #expect(messages.last?.startLine == "GET /next HTTP/1.1")
    }

    /// 20,000 pipelined requests, all sent before the first response, and a hole among the responses: pairing stays
    /// one binary search per response, and every response after the hole is still paired.
    @Test func pipelinedRequestsWithAHolePairInBoundedTime() throws {
        var tcp = TCPScript(client: (GeneratedCaptures.clientV4, 50_400), server: (GeneratedCaptures.apiV4, 80))
        tcp.handshake(syn: 0, synAck: 1, ack: 2)
        let count = 20_000
        // Segments of 1,000 messages keep every packet under the 64 KiB an IPv4 length can say.
        for block in 0..<(count / 1000) {
            var requests: [UInt8] = []
            for n in (block * 1000)..<(block * 1000 + 1000) {
                requests += Array("GET /\(n) HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
            }
            tcp.send(3, fromClient: true, requests)
        }
        let response = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
        for block in 0..<(count / 1000) {
            let segment = Array(repeating: response, count: 1000).flatMap { $0 }
            if block == count / 2000 {
                // One response lost with the first bytes of this segment's first one.
                tcp.lose(fromClient: false, response)
                tcp.send(20, fromClient: false, Array(segment.dropFirst(response.count)))
            } else {
                tcp.send(Double(10 + block), fromClient: false, segment)
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        let capture = try HTTPCaptureReader().read(PacketWriter.pcap(tcp.packets, linkType: 1)).capture
        #expect(clock.now - start < .seconds(60))
        #expect(capture.transactions.count == count)
        #expect(capture.transactions.count { $0.status == 200 } == count - 1)
    }
}
