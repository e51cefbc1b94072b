import APMInspectCore

/// One request and its response, with the phases of `NSURLSessionTaskTransactionMetrics`.
///
/// Every time is in milliseconds. Phase marks (`fetchStart` … `responseEnd`) are offsets from ``startedDateTime``;
/// durations are per phase. A value of -1 means unknown or not applicable: no phase is ever invented, and
/// ``provenance`` says which were measured, which were derived and which are missing.
public struct HTTPTransaction: Sendable, Equatable, Codable {
    /// Position in the capture after sorting by start time (0-based).
    public var index: Int
    public var method: String
    public var url: String
    /// Host from the URL, the `:authority` pseudo-header, the `Host` header or the TLS SNI (in that order).
    public var host: String
    public var scheme: String
    /// The protocol as written by the source (`"http/2.0"`, `"HTTP/1.1"`, `""` …).
    public var httpVersion: String
    /// The protocol normalised: `http/1.0`, `http/1.1`, `h2`, `h3`, `tls` (encrypted, unknown inside) or `unknown`.
    public var networkProtocol: String
    /// HTTP status; 0 for a failure without a response, nil when it cannot be known (encrypted traffic).
    public var status: Int?
    public var statusText: String
    /// The failure text (`net::ERR_INTERNET_DISCONNECTED`, a TLS alert, a reset), when there was one.
    public var error: String?
    public var outcome: Outcome
    public var trafficType: TrafficType
    public var mimeType: String
    /// When the fetch started, ISO 8601 as written by the source (empty when unknown).
    public var startedDateTime: String
    /// The start as seconds since 1970 UTC, or -1 when unknown.
    public var startEpochSeconds: Double
    public var phases: Phases
    public var durations: Durations
    /// The total as the source wrote it (HAR `time`), -1 when absent.
    public var totalReported: Double
    public var reusedConnection: Bool?
    public var proxyConnection: Bool?
    public var fromCache: Bool
    public var remoteAddress: String?
    public var remotePort: Int?
    public var connectionID: String?
    public var sizes: Sizes
    public var tls: TLSInfo?
    public var requestHeaders: [Header]
    public var responseHeaders: [Header]
    public var provenance: Provenance
    /// Vendor fields (`_initiator`, `_transferSize` …) and other fields the model does not know, verbatim, keyed by
    /// their path inside the entry (`response._transferSize`).
    @KeptJSONMembers public var extensions: [String: JSONValue]

    package init(
        index: Int = 0,
        method: String = "",
        url: String = "",
        host: String = "",
        scheme: String = "",
        httpVersion: String = "",
        networkProtocol: String = "unknown",
        status: Int? = nil,
        statusText: String = "",
        error: String? = nil,
        outcome: Outcome = .unknown,
        trafficType: TrafficType = .other,
        mimeType: String = "",
        startedDateTime: String = "",
        startEpochSeconds: Double = -1,
        phases: Phases = Phases(),
        durations: Durations = Durations(),
        totalReported: Double = -1,
        reusedConnection: Bool? = nil,
        proxyConnection: Bool? = nil,
        fromCache: Bool = false,
        remoteAddress: String? = nil,
        remotePort: Int? = nil,
        connectionID: String? = nil,
        sizes: Sizes = Sizes(),
        tls: TLSInfo? = nil,
        requestHeaders: [Header] = [],
        responseHeaders: [Header] = [],
        provenance: Provenance = Provenance(),
        extensions: [String: JSONValue] = [:]
    ) {
        self.index = index
        self.method = method
        self.url = url
        self.host = host
        self.scheme = scheme
        self.httpVersion = httpVersion
        self.networkProtocol = networkProtocol
        self.status = status
        self.statusText = statusText
        self.error = error
        self.outcome = outcome
        self.trafficType = trafficType
        self.mimeType = mimeType
        self.startedDateTime = startedDateTime
        self.startEpochSeconds = startEpochSeconds
        self.phases = phases
        self.durations = durations
        self.totalReported = totalReported
        self.reusedConnection = reusedConnection
        self.proxyConnection = proxyConnection
        self.fromCache = fromCache
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        self.connectionID = connectionID
        self.sizes = sizes
        self.tls = tls
        self.requestHeaders = requestHeaders
        self.responseHeaders = responseHeaders
        self.provenance = provenance
        self.extensions = extensions
    }

    /// The extensions as kept: values, or elements of the entry's parsed text that a streamed capture writes
    /// straight from it (``KeptJSONMembers``).
    var keptExtensions: KeptJSONMembers {
        get { _extensions }
        set { _extensions = newValue }
    }
}

extension HTTPTransaction {
    /// How a transaction ended (reference §7).
    public enum Outcome: String, Sendable, Equatable, Codable, CaseIterable {
        /// Status 100–399.
        case success
        /// Status 400–499.
        case clientError
        /// Status 500 and above.
        case serverError
        /// No usable response: status 0, an error text, a missing response, a TLS alert or a reset.
        case networkError
        /// Timing without HTTP semantics (encrypted traffic) or a response that never came in the capture.
        case unknown
    }

    /// What the traffic is for, as APM tools classify it.
    public enum TrafficType: String, Sendable, Equatable, Codable, CaseIterable {
        /// Documents, style sheets and scripts (HTML, CSS, JavaScript MIME types).
        case web
        /// Data calls: JSON, XML, protobuf, gRPC, form posts, XHR and fetch.
        case api
        /// Media and fonts: images, audio, video, fonts.
        case resource
        case other
    }

    /// The `NSURLSessionTaskTransactionMetrics` marks, in ms from ``HTTPTransaction/startedDateTime``; -1 unknown.
    public struct Phases: Sendable, Equatable, Codable {
        public var fetchStart: Double
        public var domainLookupStart: Double
        public var domainLookupEnd: Double
        public var connectStart: Double
        public var connectEnd: Double
        public var secureConnectionStart: Double
        public var secureConnectionEnd: Double
        public var requestStart: Double
        public var requestEnd: Double
        public var responseStart: Double
        public var responseEnd: Double

        package init(
            fetchStart: Double = -1,
            domainLookupStart: Double = -1,
            domainLookupEnd: Double = -1,
            connectStart: Double = -1,
            connectEnd: Double = -1,
            secureConnectionStart: Double = -1,
            secureConnectionEnd: Double = -1,
            requestStart: Double = -1,
            requestEnd: Double = -1,
            responseStart: Double = -1,
            responseEnd: Double = -1
        ) {
            self.fetchStart = fetchStart
            self.domainLookupStart = domainLookupStart
            self.domainLookupEnd = domainLookupEnd
            self.connectStart = connectStart
            self.connectEnd = connectEnd
            self.secureConnectionStart = secureConnectionStart
            self.secureConnectionEnd = secureConnectionEnd
            self.requestStart = requestStart
            self.requestEnd = requestEnd
            self.responseStart = responseStart
            self.responseEnd = responseEnd
        }
    }

    /// Phase durations in ms; -1 unknown or not applicable.
    ///
    /// `connect` is the TCP part only (TLS excluded, whatever the source's convention); `wait` is the time to first
    /// byte after the request was sent; `total` is fetch start to response end.
    public struct Durations: Sendable, Equatable, Codable {
        public var blocked: Double
        public var dns: Double
        public var connect: Double
        public var tls: Double
        public var send: Double
        public var wait: Double
        public var receive: Double
        public var total: Double

        package init(
            blocked: Double = -1,
            dns: Double = -1,
            connect: Double = -1,
            tls: Double = -1,
            send: Double = -1,
            wait: Double = -1,
            receive: Double = -1,
            total: Double = -1
        ) {
            self.blocked = blocked
            self.dns = dns
            self.connect = connect
            self.tls = tls
            self.send = send
            self.wait = wait
            self.receive = receive
            self.total = total
        }
    }

    /// Byte counts; -1 unknown.
    public struct Sizes: Sendable, Equatable, Codable {
        /// URL + request headers + request body.
        public var request: Int64
        public var requestHeaders: Int64
        public var requestBody: Int64
        /// Response headers + body as received.
        public var responseHeaders: Int64
        public var responseBody: Int64
        /// Bytes on the wire for the response (HAR `_transferSize`, or headers + body).
        public var transfer: Int64
        /// Response body after removing chunking and content encoding.
        public var decoded: Int64

        package init(
            request: Int64 = -1,
            requestHeaders: Int64 = -1,
            requestBody: Int64 = -1,
            responseHeaders: Int64 = -1,
            responseBody: Int64 = -1,
            transfer: Int64 = -1,
            decoded: Int64 = -1
        ) {
            self.request = request
            self.requestHeaders = requestHeaders
            self.requestBody = requestBody
            self.responseHeaders = responseHeaders
            self.responseBody = responseBody
            self.transfer = transfer
            self.decoded = decoded
        }
    }

    /// One header line; values of `Authorization`, `Cookie`, `Set-Cookie` and `Proxy-Authorization` are redacted
    /// unless the reader is told otherwise.
    public struct Header: Sendable, Equatable, Codable {
        public var name: String
        public var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// What the TLS handshake showed.
    public struct TLSInfo: Sendable, Equatable, Codable {
        public var serverName: String?
        /// The negotiated version (`TLS 1.3`), or the offered one when the server never answered.
        public var version: String?
        public var cipherSuite: String?
        public var alpn: String?
        /// A TLS alert, as `fatal handshake_failure (40)`.
        public var alert: String?

        package init(
            serverName: String? = nil,
            version: String? = nil,
            cipherSuite: String? = nil,
            alpn: String? = nil,
            alert: String? = nil
        ) {
            self.serverName = serverName
            self.version = version
            self.cipherSuite = cipherSuite
            self.alpn = alpn
            self.alert = alert
        }
    }

    /// Where each figure came from.
    public struct Provenance: Sendable, Equatable, Codable {
        /// Phases measured by the source (`dns`, `connect`, `tls`, `send`, `wait`, `receive`, `blocked`).
        public var measured: [String]
        /// Phases the source did not give or marked not applicable.
        public var unknown: [String]
        /// True when the source's `connect` included TLS (HAR 1.2 rule), false when TLS came on top, nil when the
        /// question did not arise.
        public var sslIncludedInConnect: Bool?
        /// True when the source's `connect` also holds the DNS lookup (mitmproxy resolves inside its connect), so
        /// DNS is unknown rather than absent.
        public var connectIncludesDNS: Bool
        /// True when the source's total is wall-clock time rather than the sum of the phases (Safari).
        public var timeIsWallClock: Bool
        /// True when the start time had no time zone and was read as UTC.
        public var startTimeAssumedUTC: Bool
        /// True when the transaction was read from cache by inference (Firefox zero or empty timings).
        public var cacheInferred: Bool
        /// True when the payload was encrypted, so the HTTP status, URL and headers cannot be known.
        public var encrypted: Bool
        /// Values that were dropped as data errors (negative other than -1, implausibly large).
        public var rejected: [String]

        package init(
            measured: [String] = [],
            unknown: [String] = [],
            sslIncludedInConnect: Bool? = nil,
            connectIncludesDNS: Bool = false,
            timeIsWallClock: Bool = false,
            startTimeAssumedUTC: Bool = false,
            cacheInferred: Bool = false,
            encrypted: Bool = false,
            rejected: [String] = []
        ) {
            self.measured = measured
            self.unknown = unknown
            self.sslIncludedInConnect = sslIncludedInConnect
            self.connectIncludesDNS = connectIncludesDNS
            self.timeIsWallClock = timeIsWallClock
            self.startTimeAssumedUTC = startTimeAssumedUTC
            self.cacheInferred = cacheInferred
            self.encrypted = encrypted
            self.rejected = rejected
        }
    }
}
