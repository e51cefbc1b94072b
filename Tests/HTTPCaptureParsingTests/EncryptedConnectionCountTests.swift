import APMInspectCore
import Testing

@testable import HTTPCaptureParsing

/// Issue 20: connections with no visible HTTP (TLS, TLS in a tunnel, QUIC) are counted as connections, never as
/// requests with an unknown outcome.
@Suite struct EncryptedConnectionCountTests {
    @Test func tlsConnectionIsNotARequest() throws {
        let summary = try Corpus.read("generated_tls13_ipv6.pcapng").capture.summary
        #expect(summary.requests == 0)
        #expect(summary.encryptedConnections == 1)
        #expect(summary.failedConnections == 0)
        #expect(summary.unknownOutcome == 0)
        #expect(summary.networkErrorRate == 0)
        #expect(summary.hosts.first?.requests == 0)
        #expect(summary.hosts.first?.encryptedConnections == 1)
        #expect(summary.byType.first?.encryptedConnections == 1)
        // Its timings still count.
        #expect(summary.overall.tls.n == 1)
        #expect(summary.slowest == [0])
    }

    @Test func failedHandshakeIsAFailedConnection() throws {
        let summary = try Corpus.read("generated_tls_alert_sll2_be_ns.pcap").capture.summary
        #expect(summary.requests == 0)
        #expect(summary.networkErrors == 0)
        #expect(summary.encryptedConnections == 1)
        #expect(summary.failedConnections == 1)
        // Failed attempts over attempts: the one connection failed.
        #expect(summary.networkErrorRate == 1)
        #expect(summary.hosts.first?.networkErrors == 1)
    }

    @Test func tunnelCountsItsConnectAsARequestAndItsTLSAsAConnection() throws {
        let summary = try Corpus.read("generated_connect_tls_tunnel.pcap").capture.summary
        #expect(summary.requests == 1)
        #expect(summary.succeeded == 1)
        #expect(summary.encryptedConnections == 1)
        #expect(summary.unknownOutcome == 0)
    }

    @Test func unansweredRequestIsStillARequest() throws {
        let summary = try Corpus.read("generated_http1_keepalive_holes.pcap").capture.summary
        #expect(summary.requests == 5)
        #expect(summary.encryptedConnections == 0)
        #expect(summary.unknownOutcome == 1)
    }

    @Test(arguments: [
        "generated_tls13_ipv6.pcapng", "generated_tls_alert_sll2_be_ns.pcap", "generated_connect_tls_tunnel.pcap",
        "generated_http1_keepalive_holes.pcap",
    ])
    func streamedSummaryCountsTheSame(name: String) throws {
        let full = try Corpus.read(name).capture.summary
        let streamed = try HTTPCaptureReader().readSummary(Corpus.bytes(name)).capture.summary
        #expect(streamed.requests == full.requests)
        #expect(streamed.encryptedConnections == full.encryptedConnections)
        #expect(streamed.failedConnections == full.failedConnections)
        #expect(streamed.unknownOutcome == full.unknownOutcome)
        #expect(streamed.networkErrorRate == full.networkErrorRate)
        #expect(streamed.hosts == full.hosts)
        #expect(streamed.byType == full.byType)
    }
}
