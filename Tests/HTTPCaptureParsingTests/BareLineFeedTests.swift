import APMInspectCore
import ByteAccess
import Testing

@testable import HTTPCaptureParsing

/// Issue 20: HTTP/1.x with bare line feeds (`GET / HTTP/1.0\n`), as HTTP allows and simple servers write.
@Suite struct BareLineFeedTests {
    @Test func bareLineFeedMessagesAreParsed() throws {
        var script = TCPScript(client: (GeneratedCaptures.clientV4, 40_100), server: (GeneratedCaptures.apiV4, 80))
        script.handshake(syn: 0, synAck: 5, ack: 6)
        script.send(7, fromClient: true, Array("GET /status HTTP/1.0\nHost: h.example\nAccept: */*\n\n".utf8))
        script.send(20, fromClient: false, Array("HTTP/1.0 200 OK\nContent-Length: 5\nServer: tiny\n\nhello".utf8))
        let capture = try HTTPCaptureReader().read(PacketWriter.pcap(script.packets, linkType: 1)).capture
        let t = try #require(capture.transactions.first)
        #expect(t.method == "GET")
        #expect(t.url == "http://h.example/status")
        #expect(t.status == 200)
        #expect(t.httpVersion == "HTTP/1.0")
        #expect(t.networkProtocol == "http/1.0")
        #expect(t.sizes.responseBody == 5)
        #expect(HTTPTransaction.headerValue("Accept", in: t.requestHeaders) == "*/*")
    }

    @Test func headerBlockEndsAtTheFirstEmptyLineOfEitherForm() {
        func end(_ text: String) -> (Int, Int)? {
            Array(text.utf8).withBorrowedBytes { HTTP1Message.headerBlockEnd($0, from: 0) }
        }
        #expect(end("GET / HTTP/1.1\r\nA: b\r\n\r\nbody").map { [$0.0, $0.1] } == [20, 24])
        #expect(end("GET / HTTP/1.0\nA: b\n\nbody").map { [$0.0, $0.1] } == [19, 21])
        #expect(end("GET / HTTP/1.0\nA: b\n\r\nbody").map { [$0.0, $0.1] } == [19, 22])
        #expect(end("GET / HTTP/1.0\nA: b\n") == nil)
        #expect(HTTP1Message.looksLikeRequest(Array("GET / HTTP/1.0\n".utf8)))
        #expect(HTTP1Message.looksLikeRequest(Array("GET / HTTP/1.1\r\n".utf8)))
        #expect(!HTTP1Message.looksLikeRequest(Array("GET / SPDY/3\n".utf8)))
    }
}

extension BareLineFeedTests {
    /// Corpus/http/generated_http10_bare-lf_ipv6_no-host.pcap (README there).
    @Test func corpusCapture() throws {
        let capture = try Corpus.read("generated_http10_bare-lf_ipv6_no-host.pcap").capture
        #expect(capture.transactions.count == 2)
        let health = try #require(capture.transactions.first { $0.method == "GET" })
        #expect(health.url == "http://[2001:db8::44]:9200/_cluster/health")
        #expect(health.host == "2001:db8::44")
        #expect(health.status == 200)
        #expect(health.networkProtocol == "http/1.0")
        #expect(health.sizes.responseBody == 15)
        #expect(health.durations.connect == 3)
        #expect(health.durations.wait == 12)
        let head = try #require(capture.transactions.first { $0.method == "HEAD" })
        #expect(head.url == "http://[2001:db8::44]:9200/")
        #expect(head.status == 503)
        #expect(head.sizes.responseBody == 0)
        #expect(capture.summary.httpErrorRate == 0.5)
    }
}
