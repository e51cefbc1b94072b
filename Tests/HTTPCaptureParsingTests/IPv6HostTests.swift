import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

/// Issue 20: an IPv6 host is written with brackets, and the port is kept (`http://[::1]:9200/`).
@Suite struct IPv6HostTests {
    @Test func charlesIPv6HostIsBracketed() throws {
        let text = """
            [{"status": "COMPLETE", "method": "GET", "protocolVersion": "HTTP/1.1", "scheme": "http",
              "host": "::1", "port": 9200, "path": "/_cluster/health", "query": null,
              "times": {"start": "2024-03-01T10:00:00.000+00:00", "end": "2024-03-01T10:00:00.020+00:00"},
              "response": {"status": 200}}]
            """
        let (capture, _) = try CharlesJSONReader().read(try JSONDocument(text: text))
        let t = try #require(capture.transactions.first)
        #expect(t.url == "http://[::1]:9200/_cluster/health")
        #expect(HTTPTransaction.urlParts(t.url).host == "::1")
        #expect(HTTPTransaction.urlParts(t.url).port == 9200)
    }
}

extension IPv6HostTests {
    @Test func packetCaptureWithoutAHostHeaderNamesTheIPv6ServerInBrackets() throws {
        var script = TCPScript(
            client: (GeneratedCaptures.clientV6, 40_000),
            server: (GeneratedCaptures.serverV6, 9200),
            v6: true
        )
        script.handshake(syn: 0, synAck: 1, ack: 2)
        script.send(3, fromClient: true, Array("GET /_cluster/health HTTP/1.0\r\n\r\n".utf8))
        script.send(9, fromClient: false, Array("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}".utf8))
        let capture = try HTTPCaptureReader().read(PacketWriter.pcap(script.packets, linkType: 1)).capture
        let t = try #require(capture.transactions.first)
        #expect(t.url == "http://[2001:db8::44]:9200/_cluster/health")
        #expect(t.host == "2001:db8::44")
        #expect(t.status == 200)
    }
}
