/// What a packet capture shows below HTTP: the container, DNS lookups, TCP connections and TLS handshakes.
public struct PacketAnalysis: Sendable, Equatable, Codable {
    /// `pcap` or `pcapng`.
    package var format: String
    package var byteOrders: [String]
    package var sections: Int
    package var interfaces: [Interface]
    /// Block counts by type (pcapng: SHB, IDB, EPB, SPB, NRB, ISB, DSB, CB, other).
    package var blocks: [String: Int]
    package var nameResolutionRecords: Int
    package var packets: Int
    package var capturedBytes: Int64
    /// Packets cut at the snap length (captured < original length).
    package var truncatedPackets: Int
    /// Packets not decoded down to TCP/UDP, by reason (`unsupportedLink`, `notIP`, `fragment`, …).
    package var undecoded: [String: Int]
    package var ipv4: Int
    package var ipv6: Int
    package var tcp: Int
    package var udp: Int
    /// Segments seen again (same bytes already received).
    package var retransmissions: Int
    /// Connections with a reset.
    package var resets: Int
    package var dns: [DNSLookup]
    package var connections: [Connection]

    package init(
        format: String = "pcap",
        byteOrders: [String] = [],
        sections: Int = 0,
        interfaces: [Interface] = [],
        blocks: [String: Int] = [:],
        nameResolutionRecords: Int = 0,
        packets: Int = 0,
        capturedBytes: Int64 = 0,
        truncatedPackets: Int = 0,
        undecoded: [String: Int] = [:],
        ipv4: Int = 0,
        ipv6: Int = 0,
        tcp: Int = 0,
        udp: Int = 0,
        retransmissions: Int = 0,
        resets: Int = 0,
        dns: [DNSLookup] = [],
        connections: [Connection] = []
    ) {
        self.format = format
        self.byteOrders = byteOrders
        self.sections = sections
        self.interfaces = interfaces
        self.blocks = blocks
        self.nameResolutionRecords = nameResolutionRecords
        self.packets = packets
        self.capturedBytes = capturedBytes
        self.truncatedPackets = truncatedPackets
        self.undecoded = undecoded
        self.ipv4 = ipv4
        self.ipv6 = ipv6
        self.tcp = tcp
        self.udp = udp
        self.retransmissions = retransmissions
        self.resets = resets
        self.dns = dns
        self.connections = connections
    }
}

extension PacketAnalysis {
    /// A capture interface.
    package struct Interface: Sendable, Equatable, Codable {
        package var linkType: Int
        package var linkTypeName: String
        package var snapLength: Int
        /// `µs`, `ns`, or another unit from `if_tsresol`.
        package var timestampResolution: String

        package init(linkType: Int, linkTypeName: String, snapLength: Int, timestampResolution: String) {
            self.linkType = linkType
            self.linkTypeName = linkTypeName
            self.snapLength = snapLength
            self.timestampResolution = timestampResolution
        }
    }

    /// One DNS query and its answer.
    package struct DNSLookup: Sendable, Equatable, Codable {
        package var name: String
        /// The query type (`A`, `AAAA`, `HTTPS`, and so on).
        package var type: String
        package var transactionID: Int
        package var client: String
        package var server: String
        /// `udp` or `tcp`.
        package var transport: String
        /// When the query was sent (ISO 8601 UTC; empty when the packet had no time).
        package var queryTime: String
        /// Query to first response, ms; -1 when no response was captured.
        package var responseMilliseconds: Double
        /// `NOERROR`, `NXDOMAIN`, `SERVFAIL` …; empty without a response.
        package var rcode: String
        package var answers: [String]
        /// True for an error rcode or no response.
        package var failed: Bool
        /// Responses seen after the first one.
        package var duplicateResponses: Int
        /// Retransmitted copies of the query.
        package var retransmittedQueries: Int
        /// True when the response had the TC bit (the client should retry over TCP).
        package var truncatedResponse: Bool

        package init(
            name: String,
            type: String,
            transactionID: Int,
            client: String,
            server: String,
            transport: String,
            queryTime: String,
            responseMilliseconds: Double = -1,
            rcode: String = "",
            answers: [String] = [],
            failed: Bool = false,
            duplicateResponses: Int = 0,
            retransmittedQueries: Int = 0,
            truncatedResponse: Bool = false
        ) {
            self.name = name
            self.type = type
            self.transactionID = transactionID
            self.client = client
            self.server = server
            self.transport = transport
            self.queryTime = queryTime
            self.responseMilliseconds = responseMilliseconds
            self.rcode = rcode
            self.answers = answers
            self.failed = failed
            self.duplicateResponses = duplicateResponses
            self.retransmittedQueries = retransmittedQueries
            self.truncatedResponse = truncatedResponse
        }
    }

    /// One TCP connection.
    package struct Connection: Sendable, Equatable, Codable {
        package var client: String
        package var server: String
        /// True when the client was found from the SYN, false when guessed from the server port (no handshake seen).
        package var handshakeSeen: Bool
        /// First packet time (ISO 8601 UTC).
        package var start: String
        /// SYN → SYN/ACK, ms (the client-side round trip); -1 unknown.
        package var synAckMilliseconds: Double
        /// SYN → the client's ACK of the SYN/ACK (the connect phase), ms; -1 unknown.
        package var connectMilliseconds: Double
        package var clientBytes: Int64
        package var serverBytes: Int64
        package var retransmissions: Int
        /// Bytes missing from the reassembled streams (loss, capture started late, snap length).
        package var missingBytes: Int64
        package var reset: Bool
        package var closed: Bool
        /// `http/1.x`, `tls`, `dns`, `quic` or `other`.
        package var application: String
        package var tls: TLSHandshake?
        /// HTTP exchanges rebuilt on this connection.
        package var httpExchanges: Int

        package init(
            client: String,
            server: String,
            handshakeSeen: Bool,
            start: String,
            synAckMilliseconds: Double = -1,
            connectMilliseconds: Double = -1,
            clientBytes: Int64 = 0,
            serverBytes: Int64 = 0,
            retransmissions: Int = 0,
            missingBytes: Int64 = 0,
            reset: Bool = false,
            closed: Bool = false,
            application: String = "other",
            tls: TLSHandshake? = nil,
            httpExchanges: Int = 0
        ) {
            self.client = client
            self.server = server
            self.handshakeSeen = handshakeSeen
            self.start = start
            self.synAckMilliseconds = synAckMilliseconds
            self.connectMilliseconds = connectMilliseconds
            self.clientBytes = clientBytes
            self.serverBytes = serverBytes
            self.retransmissions = retransmissions
            self.missingBytes = missingBytes
            self.reset = reset
            self.closed = closed
            self.application = application
            self.tls = tls
            self.httpExchanges = httpExchanges
        }
    }

    /// A TLS handshake seen in clear (the hellos; everything after is encrypted).
    package struct TLSHandshake: Sendable, Equatable, Codable {
        package var serverName: String?
        /// Versions the client offered (supported_versions, or the legacy version).
        package var offeredVersions: [String]
        /// The version the server chose; nil when it never answered.
        package var version: String?
        package var cipherSuite: String?
        package var alpnOffered: [String]
        package var alpn: String?
        /// ClientHello → ServerHello, ms; -1 unknown.
        package var serverHelloMilliseconds: Double
        /// ClientHello → handshake done (TLS 1.2: server Finished; TLS 1.3: client Finished), ms; -1 unknown.
        package var handshakeMilliseconds: Double
        /// A clear-text alert, as `fatal handshake_failure (40)`.
        package var alert: String?

        package init(
            serverName: String? = nil,
            offeredVersions: [String] = [],
            version: String? = nil,
            cipherSuite: String? = nil,
            alpnOffered: [String] = [],
            alpn: String? = nil,
            serverHelloMilliseconds: Double = -1,
            handshakeMilliseconds: Double = -1,
            alert: String? = nil
        ) {
            self.serverName = serverName
            self.offeredVersions = offeredVersions
            self.version = version
            self.cipherSuite = cipherSuite
            self.alpnOffered = alpnOffered
            self.alpn = alpn
            self.serverHelloMilliseconds = serverHelloMilliseconds
            self.handshakeMilliseconds = handshakeMilliseconds
            self.alert = alert
        }
    }
}
