/// Health figures over a capture's transactions (definitions in docs/http-captures.md, reference §7).
public struct HTTPSummary: Sendable, Equatable, Codable {
    /// Transactions with visible HTTP (a method or a status); encrypted connections are counted apart.
    public var requests: Int
    /// Connections with no visible HTTP (TLS, TLS inside a CONNECT tunnel, QUIC): they give timings but no request
    /// or status, so they are never counted as requests.
    package var encryptedConnections: Int
    /// Encrypted connections that failed (a fatal TLS alert, a reset before any response).
    package var failedConnections: Int
    package var succeeded: Int
    package var clientErrors: Int
    package var serverErrors: Int
    package var networkErrors: Int
    /// Requests without a known outcome (no response in the capture).
    package var unknownOutcome: Int
    /// Transactions served from a cache.
    package var cached: Int
    /// (4xx + 5xx) / (success + 4xx + 5xx), over non-cached transactions; 0 when there are none.
    package var httpErrorRate: Double
    /// Failed attempts / attempts: (network errors + failed connections) / (non-cached requests + encrypted
    /// connections); 0 when there are none.
    package var networkErrorRate: Double
    /// Cached / all transactions.
    package var cachedShare: Double
    /// Start of the first transaction to the end of the last one, in ms (-1 unknown).
    package var spanMilliseconds: Double
    /// Figures for every phase over all non-cached transactions.
    public var overall: PhaseStatistics
    package var hosts: [Host]
    /// The slowest non-cached transactions by total time, slowest first (indexes into `transactions`).
    public var slowest: [Int]
    package var byType: [TypeShare]
    /// Transaction count per normalised protocol.
    package var protocols: [String: Int]

    /// A summary with the given figures; the readers make it, this is public for callers building test fixtures.
    package init(
        requests: Int = 0,
        encryptedConnections: Int = 0,
        failedConnections: Int = 0,
        succeeded: Int = 0,
        clientErrors: Int = 0,
        serverErrors: Int = 0,
        networkErrors: Int = 0,
        unknownOutcome: Int = 0,
        cached: Int = 0,
        httpErrorRate: Double = 0,
        networkErrorRate: Double = 0,
        cachedShare: Double = 0,
        spanMilliseconds: Double = -1,
        overall: PhaseStatistics = PhaseStatistics(),
        hosts: [Host] = [],
        slowest: [Int] = [],
        byType: [TypeShare] = [],
        protocols: [String: Int] = [:]
    ) {
        self.requests = requests
        self.encryptedConnections = encryptedConnections
        self.failedConnections = failedConnections
        self.succeeded = succeeded
        self.clientErrors = clientErrors
        self.serverErrors = serverErrors
        self.networkErrors = networkErrors
        self.unknownOutcome = unknownOutcome
        self.cached = cached
        self.httpErrorRate = httpErrorRate
        self.networkErrorRate = networkErrorRate
        self.cachedShare = cachedShare
        self.spanMilliseconds = spanMilliseconds
        self.overall = overall
        self.hosts = hosts
        self.slowest = slowest
        self.byType = byType
        self.protocols = protocols
    }
}

extension HTTPSummary {
    /// Nearest-rank percentiles of one phase over the transactions where it is known.
    public struct Percentiles: Sendable, Equatable, Codable {
        /// How many transactions had this phase known.
        public var n: Int
        /// The median, in milliseconds (-1 with no value).
        public var p50: Double
        /// The 90th percentile, in milliseconds (-1 with no value).
        public var p90: Double
        /// The 99th percentile, in milliseconds (-1 with no value).
        public var p99: Double
        /// The slowest value, in milliseconds (-1 with no value).
        public var max: Double

        /// Percentiles of `n` values; -1 marks a percentile that has no value.
        package init(n: Int = 0, p50: Double = -1, p90: Double = -1, p99: Double = -1, max: Double = -1) {
            self.n = n
            self.p50 = p50
            self.p90 = p90
            self.p99 = p99
            self.max = max
        }
    }

    /// Percentiles for total, DNS, TCP connect, TLS, time to first byte and receive.
    public struct PhaseStatistics: Sendable, Equatable, Codable {
        /// Whole requests, first byte sent to last byte received.
        public var total: Percentiles
        /// Name lookups.
        public var dns: Percentiles
        /// TCP connection set-up.
        public var connect: Percentiles
        /// TLS handshakes.
        public var tls: Percentiles
        /// Waiting for the first byte of the response.
        public var ttfb: Percentiles
        /// Reading the response body.
        public var receive: Percentiles

        /// The statistics of each phase; the default is empty, as for a capture without timings.
        package init(
            total: Percentiles = Percentiles(),
            dns: Percentiles = Percentiles(),
            connect: Percentiles = Percentiles(),
            tls: Percentiles = Percentiles(),
            ttfb: Percentiles = Percentiles(),
            receive: Percentiles = Percentiles()
        ) {
            self.total = total
            self.dns = dns
            self.connect = connect
            self.tls = tls
            self.ttfb = ttfb
            self.receive = receive
        }
    }

    /// The figures of one host.
    package struct Host: Sendable, Equatable, Codable {
        package var host: String
        /// Requests with visible HTTP.
        package var requests: Int
        /// Connections to this host with no visible HTTP (TLS, QUIC).
        package var encryptedConnections: Int
        package var httpErrors: Int
        package var networkErrors: Int
        package var cached: Int
        /// Sum of known transfer sizes, and how many transactions had one.
        package var transferBytes: Int64
        package var transferKnown: Int
        package var decodedBytes: Int64
        package var phases: PhaseStatistics

        package init(
            host: String,
            requests: Int = 0,
            encryptedConnections: Int = 0,
            httpErrors: Int = 0,
            networkErrors: Int = 0,
            cached: Int = 0,
            transferBytes: Int64 = 0,
            transferKnown: Int = 0,
            decodedBytes: Int64 = 0,
            phases: PhaseStatistics = PhaseStatistics()
        ) {
            self.host = host
            self.requests = requests
            self.encryptedConnections = encryptedConnections
            self.httpErrors = httpErrors
            self.networkErrors = networkErrors
            self.cached = cached
            self.transferBytes = transferBytes
            self.transferKnown = transferKnown
            self.decodedBytes = decodedBytes
            self.phases = phases
        }

        /// Host order: the most requests and connections first, then by name.
        static func busierFirst(_ a: Host, _ b: Host) -> Bool {
            let (x, y) = (a.requests + a.encryptedConnections, b.requests + b.encryptedConnections)
            return x != y ? x > y : a.host < b.host
        }
    }

    /// Requests and bytes of one traffic type.
    package struct TypeShare: Sendable, Equatable, Codable {
        package var type: HTTPTransaction.TrafficType
        package var requests: Int
        /// Connections with no visible HTTP (always type `other`); their bytes are in the sums.
        package var encryptedConnections: Int
        package var transferBytes: Int64
        package var decodedBytes: Int64

        package init(
            type: HTTPTransaction.TrafficType,
            requests: Int = 0,
            encryptedConnections: Int = 0,
            transferBytes: Int64 = 0,
            decodedBytes: Int64 = 0
        ) {
            self.type = type
            self.requests = requests
            self.encryptedConnections = encryptedConnections
            self.transferBytes = transferBytes
            self.decodedBytes = decodedBytes
        }
    }
}
