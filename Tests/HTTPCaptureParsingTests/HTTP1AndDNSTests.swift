import APMInspectCore
import ByteAccess
import Testing

@testable import HTTPCaptureParsing

/// Message framing of HTTP/1.x streams and DNS over TCP.
@Suite struct HTTP1AndDNSTests {
    @Test func pipelinedRequestsPairFIFOWithHeadAndNoContent() {
        let client = Array(
            ("HEAD /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n"
                + "POST /c HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc").utf8
        )
        let server = Array(
            ("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"
                + "HTTP/1.1 204 No Content\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nX-T: 1\r\n\r\n")
                .utf8
        )
        let requests = HTTP1Message.parseAll(client, isResponse: false, maxDecoded: 1 << 20)
        #expect(requests.map(\.method) == ["HEAD", "GET", "POST"])
        #expect(requests[2].bodyBytes == 3)
        let responses = HTTP1Message.parseAll(
            server,
            isResponse: true,
            methods: requests.map(\.method),
            maxDecoded: 1 << 20
        )
        #expect(responses.map(\.status) == [200, 204, 200])
        // HEAD: Content-Length describes the resource, not a body.
        #expect(responses[0].bodyBytes == 0)
        #expect(responses[2].decodedBytes == 9)
        #expect(responses[2].complete)
        #expect(responses[2].end == server.count)
    }

    @Test func obsFoldAndCutOffBody() {
        let server = Array("HTTP/1.0 200 OK\r\nX-Long: a\r\n b\r\nContent-Length: 10\r\n\r\nabc".utf8)
        let responses = HTTP1Message.parseAll(server, isResponse: true, methods: ["GET"], maxDecoded: 1 << 20)
        #expect(responses.count == 1)
        #expect(HTTPTransaction.headerValue("x-long", in: responses[0].headers) == "a b")
        #expect(responses[0].bodyBytes == 3)
        #expect(!responses[0].complete)
    }

    @Test func connectTunnelStopsHTTPParsing() {
        let server = Array("HTTP/1.1 200 Connection established\r\n\r\n\u{16}\u{03}\u{01}garbage".utf8)
        let responses = HTTP1Message.parseAll(server, isResponse: true, methods: ["CONNECT"], maxDecoded: 1 << 20)
        #expect(responses.count == 1)
        #expect(responses[0].end == 39)
    }

    @Test func requestLineDetection() {
        #expect(HTTP1Message.looksLikeRequest(Array("GET / HTTP/1.1\r\n".utf8)))
        #expect(HTTP1Message.looksLikeRequest(Array("M-SEARCH * HTTP/1.1\r\n".utf8)))
        #expect(!HTTP1Message.looksLikeRequest(Array("\u{16}\u{03}\u{01}\u{02}".utf8)))
        #expect(!HTTP1Message.looksLikeRequest(Array("get / http/1.1\r\n".utf8)))
        let long = "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: h\r\n\r\n"
        #expect(HTTP1Message.looksLikeRequest(Array(long.utf8)))
        #expect(HTTP1Message.parseAll(Array(long.utf8), isResponse: false, maxDecoded: 1).count == 1)
    }

    @Test func dnsOverTCPWithLengthPrefix() throws {
        var tcp = TCPScript(client: (GeneratedCaptures.clientV4, 45_000), server: (GeneratedCaptures.resolverV4, 53))
        tcp.handshake(syn: 0, synAck: 2, ack: 2.1)
        let query = GeneratedCaptures.dnsQuery(id: 77, name: "tcp.example", type: 28)
        let answer = GeneratedCaptures.dnsAnswer(
            id: 77,
            name: "tcp.example",
            address: GeneratedCaptures.serverV6
        )
        tcp.send(3, fromClient: true, PacketWriter.be16(query.count) + query)
        tcp.send(9.5, fromClient: false, PacketWriter.be16(answer.count) + answer)
        let capture = try HTTPCaptureReader().read(PacketWriter.pcap(tcp.packets, linkType: 1)).capture
        let lookup = try #require(capture.packets?.dns.first)
        #expect(lookup.transport == "tcp")
        #expect(lookup.type == "AAAA")
        #expect(lookup.responseMilliseconds == 6.5)
        #expect(lookup.answers == ["2001:db8::44"])
        #expect(capture.packets?.connections.first?.application == "dns")
        #expect(capture.transactions.isEmpty)
    }

    @Test func dnsNamesWithCompressionLoopsAreRejected() {
        // A name pointer to itself must not loop forever.
        let message: [UInt8] = [0, 1, 0x81, 0x80, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 0x0C, 0, 1, 0, 1]
        let parsed = message.withBorrowedBytes { DNSMessage(ByteView($0)) }
        #expect(parsed == nil)
    }

    @Test func resetBeforeTheResponseIsANetworkError() throws {
        var tcp = TCPScript(client: (GeneratedCaptures.clientV4, 46_000), server: (GeneratedCaptures.apiV4, 80))
        tcp.handshake(syn: 0, synAck: 5, ack: 5.5)
        tcp.send(6, fromClient: true, Array("GET /slow HTTP/1.1\r\nHost: api.example.com\r\n\r\n".utf8))
        tcp.reset(3000, fromClient: false)
        let capture = try HTTPCaptureReader().read(PacketWriter.pcap(tcp.packets, linkType: 1)).capture
        let t = try #require(capture.transactions.first)
        #expect(t.outcome == .networkError)
        #expect(t.status == 0)
        #expect(t.error == "connection reset before the response")
        #expect(capture.packets?.resets == 1)
        #expect(capture.summary.networkErrorRate == 1)
    }
}
