import APMInspectCore

/// One request and its response, with the phases of `NSURLSessionTaskTransactionMetrics`.
///
/// Every time is in milliseconds. Phase marks (`fetchStart` … `responseEnd`) are offsets from `startedDateTime`;
/// durations are per phase. A value of -1 means unknown or not applicable: no phase is ever invented, and
/// `provenance` says which were measured, which were derived and which are missing.
public struct HTTPTransaction: Sendable, Equatable, Codable {
    /// Position in the capture after sorting by start time (0-based).
    public var index: Int
    /// The request method as sent (`GET`, `POST` …).
    public var method: String
    /// The request URL as recorded.
    public var url: String
    /// Host from the URL, the `:authority` pseudo-header, the `Host` header or the TLS SNI (in that order).
    package var host: String
    package var scheme: String
    /// The protocol as written by the source (`"http/2.0"`, `"HTTP/1.1"`, `""` …).
    package var httpVersion: String
    /// The protocol normalised: `http/1.0`, `http/1.1`, `h2`, `h3`, `tls` (encrypted, unknown inside) or `unknown`.
    package var networkProtocol: String
    /// HTTP status; 0 for a failure without a response, nil when it cannot be known (encrypted traffic).
    public var status: Int?
    package var statusText: String
    /// The failure text (`net::ERR_INTERNET_DISCONNECTED`, a TLS alert, a reset), when there was one.
    package var error: String?
    package var outcome: Outcome
    package var trafficType: TrafficType
    package var mimeType: String
    /// When the fetch started, ISO 8601 as written by the source (empty when unknown).
    package var startedDateTime: String
    /// The start as seconds since 1970 UTC, or -1 when unknown.
    package var startEpochSeconds: Double
    package var phases: Phases
    package var durations: Durations
    /// The total as the source wrote it (HAR `time`), -1 when absent.
    package var totalReported: Double
    package var reusedConnection: Bool?
    package var proxyConnection: Bool?
    package var fromCache: Bool
    package var remoteAddress: String?
    package var remotePort: Int?
    package var connectionID: String?
    package var sizes: Sizes
    package var tls: TLSInfo?
    package var requestHeaders: [Header]
    package var responseHeaders: [Header]
    package var provenance: Provenance
    /// Vendor fields (`_initiator`, `_transferSize` …) and other fields the model does not know, verbatim, keyed by
    /// their path inside the entry (`response._transferSize`).
    @KeptJSONMembers package var extensions: [String: JSONValue]

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
    package enum Outcome: String, Sendable, Equatable, Codable, CaseIterable {
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
    package enum TrafficType: String, Sendable, Equatable, Codable, CaseIterable {
        /// Documents, style sheets and scripts (HTML, CSS, JavaScript MIME types).
        case web
        /// Data calls: JSON, XML, protobuf, gRPC, form posts, XHR and fetch.
        case api
        /// Media and fonts: images, audio, video, fonts.
        case resource
        case other
    }

    /// The `NSURLSessionTaskTransactionMetrics` marks, in ms from ``HTTPTransaction/startedDateTime``; -1 unknown.
    package struct Phases: Sendable, Equatable, Codable {
        package var fetchStart: Double
        package var domainLookupStart: Double
        package var domainLookupEnd: Double
        package var connectStart: Double
        package var connectEnd: Double
        package var secureConnectionStart: Double
        package var secureConnectionEnd: Double
        package var requestStart: Double
        package var requestEnd: Double
        package var responseStart: Double
        package var responseEnd: Double

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
    package struct Durations: Sendable, Equatable, Codable {
        package var blocked: Double
        package var dns: Double
        package var connect: Double
        package var tls: Double
        package var send: Double
        package var wait: Double
        package var receive: Double
        package var total: Double

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
    package struct Sizes: Sendable, Equatable, Codable {
        /// URL + request headers + request body.
        package var request: Int64
        package var requestHeaders: Int64
        package var requestBody: Int64
        /// Response headers + body as received.
        package var responseHeaders: Int64
        package var responseBody: Int64
        /// Bytes on the wire for the response (HAR `_transferSize`, or headers + body).
        package var transfer: Int64
        /// Response body after removing chunking and content encoding.
        package var decoded: Int64

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
    package struct Header: Sendable, Equatable, Codable {
        package var name: String
        package var value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// What the TLS handshake showed.
    package struct TLSInfo: Sendable, Equatable, Codable {
        package var serverName: String?
        /// The negotiated version (`TLS 1.3`), or the offered one when the server never answered.
        package var version: String?
        package var cipherSuite: String?
        package var alpn: String?
        /// A TLS alert, as `fatal handshake_failure (40)`.
        package var alert: String?

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
    package struct Provenance: Sendable, Equatable, Codable {
        /// Phases measured by the source (`dns`, `connect`, `tls`, `send`, `wait`, `receive`, `blocked`).
        package var measured: [String]
        /// Phases the source did not give or marked not applicable.
        package var unknown: [String]
        /// True when the source's `connect` included TLS (HAR 1.2 rule), false when TLS came on top, nil when the
        /// question did not arise.
        package var sslIncludedInConnect: Bool?
        /// True when the source's `connect` also holds the DNS lookup (mitmproxy resolves inside its connect), so
        /// DNS is unknown rather than absent.
        package var connectIncludesDNS: Bool
        /// True when the source's total is wall-clock time rather than the sum of the phases (Safari).
        package var timeIsWallClock: Bool
        /// True when the start time had no time zone and was read as UTC.
        package var startTimeAssumedUTC: Bool
        /// True when the transaction was read from cache by inference (Firefox zero or empty timings).
        package var cacheInferred: Bool
        /// True when the payload was encrypted, so the HTTP status, URL and headers cannot be known.
        package var encrypted: Bool
        /// Values that were dropped as data errors (negative other than -1, implausibly large).
        package var rejected: [String]

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
