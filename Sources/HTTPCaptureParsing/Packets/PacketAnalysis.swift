/// What a packet capture shows below HTTP: the container, DNS lookups, TCP connections and TLS handshakes.
public struct PacketAnalysis: Sendable, Equatable, Codable {
    /// `pcap` or `pcapng`.
    public var format: String
    public var byteOrders: [String]
    public var sections: Int
    public var interfaces: [Interface]
    /// Block counts by type (pcapng: SHB, IDB, EPB, SPB, NRB, ISB, DSB, CB, other).
    public var blocks: [String: Int]
    public var nameResolutionRecords: Int
    public var packets: Int
    public var capturedBytes: Int64
    /// Packets cut at the snap length (captured < original length).
    public var truncatedPackets: Int
    /// Packets not decoded down to TCP/UDP, by reason (`unsupportedLink`, `notIP`, `fragment`, …).
    public var undecoded: [String: Int]
    public var ipv4: Int
    public var ipv6: Int
    public var tcp: Int
    public var udp: Int
    /// Segments seen again (same bytes already received).
    public var retransmissions: Int
    /// Connections with a reset.
    public var resets: Int
    public var dns: [DNSLookup]
    public var connections: [Connection]

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
    public struct Interface: Sendable, Equatable, Codable {
        public var linkType: Int
        public var linkTypeName: String
        public var snapLength: Int
        /// `µs`, `ns`, or another unit from `if_tsresol`.
        public var timestampResolution: String

        package init(linkType: Int, linkTypeName: String, snapLength: Int, timestampResolution: String) {
            self.linkType = linkType
            self.linkTypeName = linkTypeName
            self.snapLength = snapLength
            self.timestampResolution = timestampResolution
        }
    }

    /// One DNS query and its answer.
    public struct DNSLookup: Sendable, Equatable, Codable {
        public var name: String
        /// The query type (`A`, `AAAA`, `HTTPS`, and so on).
        public var type: String
        public var transactionID: Int
        public var client: String
        public var server: String
        /// `udp` or `tcp`.
        public var transport: String
        /// When the query was sent (ISO 8601 UTC; empty when the packet had no time).
        public var queryTime: String
        /// Query to first response, ms; -1 when no response was captured.
        public var responseMilliseconds: Double
        /// `NOERROR`, `NXDOMAIN`, `SERVFAIL` …; empty without a response.
        public var rcode: String
        public var answers: [String]
        /// True for an error rcode or no response.
        public var failed: Bool
        /// Responses seen after the first one.
        public var duplicateResponses: Int
        /// Retransmitted copies of the query.
        public var retransmittedQueries: Int
        /// True when the response had the TC bit (the client should retry over TCP).
        public var truncatedResponse: Bool

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
    public struct Connection: Sendable, Equatable, Codable {
        public var client: String
        public var server: String
        /// True when the client was found from the SYN, false when guessed from the server port (no handshake seen).
        public var handshakeSeen: Bool
        /// First packet time (ISO 8601 UTC).
        public var start: String
        /// SYN → SYN/ACK, ms (the client-side round trip); -1 unknown.
        public var synAckMilliseconds: Double
        /// SYN → the client's ACK of the SYN/ACK (the connect phase), ms; -1 unknown.
        public var connectMilliseconds: Double
        public var clientBytes: Int64
        public var serverBytes: Int64
        public var retransmissions: Int
        /// Bytes missing from the reassembled streams (loss, capture started late, snap length).
        public var missingBytes: Int64
        public var reset: Bool
        public var closed: Bool
        /// `http/1.x`, `tls`, `dns`, `quic` or `other`.
        public var application: String
        public var tls: TLSHandshake?
        /// HTTP exchanges rebuilt on this connection.
        public var httpExchanges: Int

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
    public struct TLSHandshake: Sendable, Equatable, Codable {
        public var serverName: String?
        /// Versions the client offered (supported_versions, or the legacy version).
        public var offeredVersions: [String]
        /// The version the server chose; nil when it never answered.
        public var version: String?
        public var cipherSuite: String?
        public var alpnOffered: [String]
        public var alpn: String?
        /// ClientHello → ServerHello, ms; -1 unknown.
        public var serverHelloMilliseconds: Double
        /// ClientHello → handshake done (TLS 1.2: server Finished; TLS 1.3: client Finished), ms; -1 unknown.
        public var handshakeMilliseconds: Double
        /// A clear-text alert, as `fatal handshake_failure (40)`.
        public var alert: String?

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
