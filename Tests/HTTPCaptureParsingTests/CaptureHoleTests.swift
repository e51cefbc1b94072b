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
        #expect(
            result.diagnostics.contains {
                $0.message.contains("42 bytes after a capture hole skipped to the next response line")
            }
        )
        #expect(result.diagnostics.contains { $0.message.contains("/a is cut by a capture hole (1000 bytes missing)") })
    }

    @Test func tlsInsideAConnectTunnelIsTheTargets() throws {
        let capture = try Corpus.read("generated_connect_tls_tunnel.pcap").capture
        #expect(capture.transactions.count == 2)
        let connect = try #require(capture.transactions.first { $0.method == "CONNECT" })
        #expect(connect.status == 200)
        #expect(connect.url == "https://secure.example.com:8443/")
        let tunnel = try #require(capture.transactions.first { $0.provenance.encrypted })
        #expect(tunnel.host == "secure.example.com")
        #expect(tunnel.url == "https://secure.example.com:8443/")
        #expect(tunnel.proxyConnection == true)
        #expect(tunnel.remoteAddress == "10.0.0.9")
        #expect(tunnel.remotePort == 3128)
        #expect(tunnel.tls?.version == "TLS 1.3")
        #expect(tunnel.durations.tls == 41)
        #expect(tunnel.durations.wait == 57)
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
}
