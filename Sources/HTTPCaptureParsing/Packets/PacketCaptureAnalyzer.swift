import APMInspectCore
import ByteAccess

/// Turns a pcap or pcapng capture into DNS lookups, TCP connections, TLS handshakes and HTTP transactions.
///
/// HTTP/1.x is rebuilt from reassembled TCP; TLS gives timings and the hellos (SNI, versions, ALPN) but no HTTP
/// status, and transactions say so (`provenance.encrypted`).
struct PacketCaptureAnalyzer {
    var options: HTTPCaptureOptions

    /// Server ports used to orient a connection whose SYN was not captured.
    static let serverPorts: Set<UInt16> = [53, 80, 443, 853, 3128, 5353, 8000, 8008, 8080, 8443, 8888]

    struct FlowKey: Hashable {
        var a: Endpoint
        var b: Endpoint

        init(_ x: Endpoint, _ y: Endpoint) {
            if x < y {
                a = x
                b = y
            } else {
                a = y
                b = x
            }
        }
    }

    struct Flow {
        var first: Endpoint
        var firstPeer: Endpoint
        var order: Int
        /// What `first` sent and what `firstPeer` sent, in fields rather than a dictionary by endpoint: a lookup by
        /// endpoint hashed two addresses and a port for every packet.
        var fromFirst = TCPDirection()
        var fromPeer = TCPDirection()
        var client: Endpoint?
        var synTime: Int64?
        var synAckTime: Int64?
        var handshakeAckTime: Int64?
        var firstTime: Int64?

        /// What `end` sent (empty when it sent nothing).
        func direction(from end: Endpoint) -> TCPDirection {
            if end == first { return fromFirst }
            if end == firstPeer { return fromPeer }
            return TCPDirection()
        }
    }

    struct PendingQuery {
        var lookup: PacketAnalysis.DNSLookup
        var time: Int64?
        var answered = false
        var addresses: [IPAddress] = []
        var responseTime: Int64?
    }

    struct DNSKey: Hashable {
        var client: Endpoint
        var server: Endpoint
        var id: UInt16
    }

    func analyze(_ bytes: [UInt8]) throws(HTTPCaptureError) -> (HTTPCapture, [Diagnostic]) {
        var container = PacketContainerReader()
        var analysis = PacketAnalysis()
        var flows: [Flow] = []
        var quicFlows: [QUICFlow] = []
        var quicIndex: [FlowKey: Int] = [:]
        var flowIndex: [FlowKey: Int] = [:]
        var queries: [PendingQuery] = []
        var queryIndex: [DNSKey: Int] = [:]
        let maxStream = options.maxStreamBytes
        let result: Result<Void, HTTPCaptureError> = bytes.withBorrowedBytes { raw in
            do throws(HTTPCaptureError) {
                try container.read(ByteView(raw), maxPackets: options.maxPackets) { packet in
                    analysis.packets += 1
                    analysis.capturedBytes += Int64(packet.data.count)
                    if packet.data.count < packet.originalLength { analysis.truncatedPackets += 1 }
                    let ip: ByteView
                    switch LinkLayer.ipPayload(packet.data, linkType: packet.linkType) {
                    case .success(let payload): ip = payload
                    case .failure(let skip):
                        analysis.undecoded["\(skip.reason)", default: 0] += 1
                        return
                    }
                    if let version = ip.u8(0) {
                        if version >> 4 == 4 { analysis.ipv4 += 1 } else if version >> 4 == 6 { analysis.ipv6 += 1 }
                    }
                    let segment: LinkLayer.Segment
                    switch LinkLayer.segment(ip) {
                    case .success(let found): segment = found
                    case .failure(let skip):
                        analysis.undecoded["\(skip.reason)", default: 0] += 1
                        return
                    }
                    switch segment.transport {
                    case .udp:
                        analysis.udp += 1
                        if segment.source.port == 443 || segment.destination.port == 443,
                            QUICFlow.looksLikeQUIC(segment.payload)
                        {
                            let key = FlowKey(segment.source, segment.destination)
                            let fromClient = segment.destination.port == 443 && segment.source.port != 443
                            let index: Int
                            if let known = quicIndex[key] {
                                index = known
                            } else {
                                index = quicFlows.count
                                quicIndex[key] = index
                                let client = fromClient ? segment.source : segment.destination
                                let server = fromClient ? segment.destination : segment.source
                                quicFlows.append(QUICFlow(client: client, server: server))
                            }
                            quicFlows[index].add(
                                segment.payload,
                                fromClient: segment.source == quicFlows[index].client,
                                time: packet.timestamp
                            )
                        }
                        if Self.isDNSPort(segment.source.port) || Self.isDNSPort(segment.destination.port),
                            let message = DNSMessage(segment.payload)
                        {
                            Self.record(
                                message,
                                segment: segment,
                                time: packet.timestamp,
                                transport: "udp",
                                queries: &queries,
                                index: &queryIndex
                            )
                        }
                    case .tcp(let seq, _, let flags, _):
                        analysis.tcp += 1
                        let key = FlowKey(segment.source, segment.destination)
                        // Flows live in an array and are mutated in place: copying a flow out and back would copy
                        // its buffered segments on every packet.
                        let index: Int
                        if let known = flowIndex[key] {
                            index = known
                        } else {
                            index = flows.count
                            flowIndex[key] = index
                            flows.append(Flow(first: segment.source, firstPeer: segment.destination, order: index))
                        }
                        if flows[index].firstTime == nil { flows[index].firstTime = packet.timestamp }
                        let isSYN = flags & 0x02 != 0
                        let isACK = flags & 0x10 != 0
                        if isSYN && !isACK {
                            if flows[index].client == nil { flows[index].client = segment.source }
                            if flows[index].synTime == nil { flows[index].synTime = packet.timestamp }
                        } else if isSYN && isACK {
                            if flows[index].client == nil { flows[index].client = segment.destination }
                            if flows[index].synAckTime == nil { flows[index].synAckTime = packet.timestamp }
                        } else if isACK, flows[index].synAckTime != nil, flows[index].handshakeAckTime == nil,
                            segment.source == flows[index].client
                        {
                            flows[index].handshakeAckTime = packet.timestamp
                        }
                        // The key is the pair of endpoints: a packet of the flow comes from one or the other.
                        let side: WritableKeyPath<Flow, TCPDirection> =
                            segment.source == flows[index].first ? \.fromFirst : \.fromPeer
                        flows[index][keyPath: side].add(
                            seq: seq,
                            flags: flags,
                            payload: segment.payload,
                            time: packet.timestamp,
                            maxBytes: maxStream
                        )
                    }
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        var log = container.log
        let info = container.info
        analysis.format = info.format
        analysis.byteOrders = info.byteOrders
        analysis.sections = info.sections
        analysis.interfaces = info.interfaces
        analysis.blocks = info.blockCounts
        analysis.nameResolutionRecords = info.nameResolutionRecords
        if info.decryptionSecrets > 0 {
            log.add(
                .pcapDecryptionSecrets,
                .note,
                "the capture holds \(info.decryptionSecrets) decryption secrets block(s); TLS decryption is not done",
                at: nil
            )
        }
        if let fragments = analysis.undecoded["fragment"] {
            log.add(.pcapIPFragments, .note, "\(fragments) IP fragment(s) were not reassembled", at: nil)
        }
        // TCP connections, in order of appearance.
        var transactions: [HTTPTransaction] = []
        for flow in flows {
            analyzeFlow(
                flow,
                capture: bytes,
                queries: &queries,
                queryIndex: &queryIndex,
                analysis: &analysis,
                transactions: &transactions,
                log: &log
            )
        }
        for flow in quicFlows {
            let (connection, transaction) = quicTransaction(flow)
            analysis.connections.append(connection)
            if let transaction { transactions.append(transaction) }
        }
        // DNS, after TCP/53 was added.
        analysis.dns = queries.map { pending in
            var lookup = pending.lookup
            if !pending.answered {
                lookup.failed = true
            }
            return lookup
        }
        linkDNS(&transactions, queries: queries)
        var capture = HTTPCapture(source: info.format == "pcapng" ? .pcapng : .pcap, version: info.version)
        capture.setTransactions(transactions)
        capture.packets = analysis
        if analysis.packets == 0 { log.add(.pcapNoPackets, .note, "the capture holds no packets", at: nil) }
        return (capture, log.finished())
    }

    static func isDNSPort(_ port: UInt16) -> Bool { port == 53 || port == 5353 }

    static func record(
        _ message: DNSMessage,
        segment: LinkLayer.Segment,
        time: Int64?,
        transport: String,
        queries: inout [PendingQuery],
        index: inout [DNSKey: Int]
    ) {
        if !message.isResponse {
            let key = DNSKey(client: segment.source, server: segment.destination, id: message.id)
            if let existing = index[key], queries.indices.contains(existing), !queries[existing].answered,
                queries[existing].lookup.name == message.name
            {
                queries[existing].lookup.retransmittedQueries += 1
                return
            }
            let lookup = PacketAnalysis.DNSLookup(
                name: message.name,
                type: DNSMessage.typeName(message.type),
                transactionID: Int(message.id),
                client: segment.source.text,
                server: segment.destination.text,
                transport: transport,
                queryTime: time.map { CaptureTimestamp.iso8601(Double($0) / 1e9) } ?? ""
            )
            index[key] = queries.count
            queries.append(PendingQuery(lookup: lookup, time: time))
        } else {
            let key = DNSKey(client: segment.destination, server: segment.source, id: message.id)
            guard let position = index[key], queries.indices.contains(position) else { return }
            if queries[position].answered {
                queries[position].lookup.duplicateResponses += 1
                return
            }
            queries[position].answered = true
            queries[position].responseTime = time
            queries[position].addresses = message.addresses
            var lookup = queries[position].lookup
            if let time, let start = queries[position].time { lookup.responseMilliseconds = Double(time - start) / 1e6 }
            lookup.rcode = DNSMessage.rcodeName(message.rcode)
            lookup.answers = message.answers
            lookup.failed = message.rcode != 0
            lookup.truncatedResponse = message.truncated
            queries[position].lookup = lookup
        }
    }

    private func analyzeFlow(
        _ flow: Flow,
        capture: [UInt8],
        queries: inout [PendingQuery],
        queryIndex: inout [DNSKey: Int],
        analysis: inout PacketAnalysis,
        transactions: inout [HTTPTransaction],
        log: inout DiagnosticLog
    ) {
        let endpoints = Array(Set([flow.first, flow.firstPeer])).sorted()
        let other: (Endpoint) -> Endpoint? = { end in endpoints.first { $0 != end } }
        var client = flow.client
        let handshakeSeen = client != nil
        if client == nil {
            // No SYN: the side on a well-known server port is the server; otherwise the higher port is the client.
            let a = flow.first
            if let b = other(a) {
                if Self.serverPorts.contains(a.port) && !Self.serverPorts.contains(b.port) {
                    client = b
                } else if Self.serverPorts.contains(b.port) && !Self.serverPorts.contains(a.port) {
                    client = a
                } else {
                    client = a.port > b.port ? a : b
                }
            }
        }
        guard let client, let server = other(client) else { return }
        let clientDirection = flow.direction(from: client)
        let serverDirection = flow.direction(from: server)
        let (clientStream, serverStream) = capture.withBorrowedBytes { raw in
            (clientDirection.reassemble(from: raw), serverDirection.reassemble(from: raw))
        }
        let start = flow.synTime ?? flow.firstTime
        var connection = PacketAnalysis.Connection(
            client: client.text,
            server: server.text,
            handshakeSeen: handshakeSeen,
            start: start.map { CaptureTimestamp.iso8601(Double($0) / 1e9) } ?? ""
        )
        if let syn = flow.synTime, let synAck = flow.synAckTime, synAck >= syn {
            connection.synAckMilliseconds = Double(synAck - syn) / 1e6
        }
        if let syn = flow.synTime, let ack = flow.handshakeAckTime, ack >= syn {
            connection.connectMilliseconds = Double(ack - syn) / 1e6
        } else if connection.synAckMilliseconds >= 0 {
            connection.connectMilliseconds = connection.synAckMilliseconds
        }
        connection.clientBytes = clientDirection.payloadBytes
        connection.serverBytes = serverDirection.payloadBytes
        connection.retransmissions = clientStream.retransmissions + serverStream.retransmissions
        connection.missingBytes = clientStream.missingBytes + serverStream.missingBytes
        connection.reset = clientDirection.resetTime != nil || serverDirection.resetTime != nil
        connection.closed = clientDirection.finTime != nil || serverDirection.finTime != nil
        analysis.retransmissions += connection.retransmissions
        if connection.reset { analysis.resets += 1 }
        if clientDirection.droppedForLimit || serverDirection.droppedForLimit {
            log.add(
                .pcapStreamLimit,
                .warning,
                "connection \(client.text) → \(server.text) holds more than \(options.maxStreamBytes) bytes; the rest is not parsed",
                at: nil
            )
        }
        let context = ConnectionContext(
            flow: flow,
            client: client,
            server: server,
            clientDirection: clientDirection,
            serverDirection: serverDirection,
            handshakeSeen: handshakeSeen,
            connectMilliseconds: connection.connectMilliseconds,
            serverAddressText: server.address.text,
            connectionID: "\(connection.client)-\(connection.server)"
        )
        if Self.isDNSPort(server.port) {
            connection.application = "dns"
            for (whole, from, to) in [(clientStream, client, server), (serverStream, server, client)] {
                let stream = whole.beforeFirstGap()
                var offset = 0
                while offset + 2 <= stream.bytes.count {
                    let length = Int(stream.bytes[offset]) << 8 | Int(stream.bytes[offset + 1])
                    guard length > 0, offset + 2 + length <= stream.bytes.count else { break }
                    let time = stream.time(at: offset)
                    stream.bytes[(offset + 2)..<(offset + 2 + length)].withBorrowedBytes { raw in
                        if let message = DNSMessage(ByteView(raw)) {
                            let segment = LinkLayer.Segment(
                                source: from,
                                destination: to,
                                transport: .udp,
                                payload: ByteView(raw),
                                truncated: false
                            )
                            Self.record(
                                message,
                                segment: segment,
                                time: time,
                                transport: "tcp",
                                queries: &queries,
                                index: &queryIndex
                            )
                        }
                    }
                    offset += 2 + length
                }
            }
        } else if HTTP1Message.looksLikeRequest(clientStream.bytes)
            || clientStream.bytes.isEmpty && HTTPSyntax.startsStatusLine(serverStream.bytes)
        {
            connection.application = "http/1.x"
            var tunnelTLS: PacketAnalysis.TLSHandshake?
            let built = httpTransactions(
                context,
                clientStream: clientStream,
                serverStream: serverStream,
                tunnelTLS: &tunnelTLS,
                log: &log
            )
            // The handshake inside a CONNECT tunnel describes this connection too.
            if let tunnelTLS { connection.tls = tunnelTLS }
            connection.httpExchanges = built.count
            transactions += built
        } else if TLSScanner.looksLikeTLS(clientStream.bytes) {
            connection.application = "tls"
            let scanner = TLSScanner(client: clientStream.beforeFirstGap(), server: serverStream.beforeFirstGap())
            connection.tls = scanner.handshake
            transactions.append(tlsTransaction(context, scanner: scanner))
        }
        analysis.connections.append(connection)
    }

    struct ConnectionContext {
        var flow: Flow
        var client: Endpoint
        var server: Endpoint
        var clientDirection: TCPDirection
        var serverDirection: TCPDirection
        var handshakeSeen: Bool
        var connectMilliseconds: Double
        /// The server's address and the connection's name as text, written once for all its transactions (each
        /// took about 1,700 instructions, twice for every transaction).
        var serverAddressText: String
        var connectionID: String
    }

    /// A transaction skeleton with the connection phases (DNS is linked later).
    private func base(_ context: ConnectionContext, fetchStart: Int64?, firstOnConnection: Bool) -> HTTPTransaction {
        var t = HTTPTransaction()
        t.remoteAddress = context.serverAddressText
        t.remotePort = Int(context.server.port)
        t.connectionID = context.connectionID
        t.startEpochSeconds = fetchStart.map { Double($0) / 1e9 } ?? -1
        t.startedDateTime = fetchStart.map { CaptureTimestamp.iso8601(Double($0) / 1e9) } ?? ""
        t.phases.fetchStart = fetchStart == nil ? -1 : 0
        t.reusedConnection = firstOnConnection ? (context.handshakeSeen ? false : nil) : true
        if firstOnConnection, let syn = context.flow.synTime, context.connectMilliseconds >= 0 {
            let offset = fetchStart.map { Double(syn - $0) / 1e6 } ?? 0
            t.phases.connectStart = offset
            t.phases.connectEnd = offset + context.connectMilliseconds
            t.durations.connect = context.connectMilliseconds
            t.provenance.measured.append("connect")
        } else {
            t.provenance.unknown.append("connect")
        }
        return t
    }

    private func milliseconds(_ time: Int64?, from origin: Int64?) -> Double {
        guard let time, let origin else { return -1 }
        return Double(time - origin) / 1e6
    }

    private func httpTransactions(
        _ context: ConnectionContext,
        clientStream: TCPStream,
        serverStream: TCPStream,
        tunnelTLS: inout PacketAnalysis.TLSHandshake?,
        log: inout DiagnosticLog
    ) -> [HTTPTransaction] {
        let requests = HTTP1Message.parseAll(
            clientStream.bytes,
            isResponse: false,
            gaps: clientStream.gaps,
            maxDecoded: options.maxDecompressedBytes
        )
        let responses = HTTP1Message.parseAll(
            serverStream.bytes,
            isResponse: true,
            methods: requests.map(\.method),
            versionless: requests.map(\.version.isEmpty),
            gaps: serverStream.gaps,
            maxDecoded: options.maxDecompressedBytes
        )
        let finals = responses.filter { !(100..<200).contains($0.status ?? 0) || $0.status == 101 }
        let connectionName = "\(context.client.text) → \(context.server.text)"
        for (messages, side) in [(requests, "request"), (responses, "response")] {
            for message in messages where message.skippedBefore > 0 {
                log.add(
                    .pcapCaptureHoleSkip,
                    .warning,
                    "connection \(connectionName): \(message.skippedBefore) bytes after a capture hole skipped to the next \(side) line",
                    at: nil
                )
            }
        }
        let missing = clientStream.missingBytes + serverStream.missingBytes
        if missing > 0 {
            log.add(
                .pcapCaptureHole,
                .note,
                "connection \(connectionName): \(missing) bytes were not captured; parsing resumed after each hole",
                at: nil
            )
        }
        let answers = HTTPExchangePairing.pair(
            requests: requests,
            responses: finals,
            clientStream: clientStream,
            serverStream: serverStream
        )
        var out: [HTTPTransaction] = []
        if requests.isEmpty {
            // Only the server side was captured: the responses are real, the requests unknown.
            for response in finals {
                let start = serverStream.time(at: response.start)
                var t = base(context, fetchStart: start, firstOnConnection: false)
                t.reusedConnection = nil
                t.host = context.server.address.text
                t.scheme = "http"
                t.httpVersion = response.version
                t.networkProtocol = HTTPTransaction.normalisedProtocol(response.version)
                t.status = response.status
                t.mimeType = HTTPTransaction.headerValue("Content-Type", in: response.headers) ?? ""
                t.responseHeaders = redact(response.headers)
                t.phases.responseStart = 0
                t.phases.responseEnd = milliseconds(
                    serverStream.time(at: Swift.max(response.start, response.end - 1)),
                    from: start
                )
                t.sizes.responseHeaders = Int64(response.headerEnd - response.start)
                t.sizes.responseBody = Swift.max(0, response.bodyBytes)
                t.sizes.transfer = Int64(response.end - response.start)
                t.sizes.decoded = response.decodedBytes
                t.outcome = HTTPTransaction.outcome(status: t.status, error: nil, hasResponse: true)
                t.provenance.unknown += ["dns", "tls", "send", "wait"]
                t.provenance.measured.append("receive")
                t.durations.receive = t.phases.responseEnd
                t.trafficType = HTTPTransaction.trafficType(mimeType: t.mimeType)
                t.roundTimes()
                out.append(t)
            }
            log.add(
                .pcapResponseOnly,
                .note,
                "responses without their requests in the capture (request side missing)",
                at: nil
            )
            return out
        }
        for (position, request) in requests.enumerated() {
            let first = position == 0
            let requestStart = clientStream.time(at: request.start)
            let fetchStart = first ? (context.flow.synTime ?? requestStart) : requestStart
            var t = base(context, fetchStart: fetchStart, firstOnConnection: first)
            t.method = request.method
            let target = request.parsedStartLine.target
            // Without a Host header (HTTP/1.0) the server's address names it: an IPv6 one in brackets, and the port
            // kept unless it is HTTP's own.
            let hostHeader =
                HTTPTransaction.headerValue("Host", in: request.headers)
                ?? (context.server.port == 80
                    ? (context.server.address.isV6 ? "[\(context.server.address.text)]" : context.server.address.text)
                    : context.server.text)
            // The URL as RFC 9112 §3.3 rebuilds the target URI: absolute form as written; origin form after the
            // Host; asterisk form (`OPTIONS *`) and a missing target as the origin alone, with an empty path
            // (§3.2.4); a CONNECT's authority form as written (`example.com:443`), as mitmproxy, Wireshark and Zeek
            // show it, its host the one the tunnel goes to.
            if target.contains(ascii: "://") {
                t.url = target
                t.proxyConnection = true
            } else if t.method == "CONNECT" {
                t.url = target.isEmpty ? hostHeader : target
                t.proxyConnection = true
            } else if target == "*" || target.isEmpty {
                t.url = "http://" + hostHeader
            } else {
                t.url = "http://" + hostHeader + target
            }
            t.scheme = "http"
            if t.method == "CONNECT" && !target.contains(ascii: "://") {
                t.host = TunnelTarget(authority: target, hostHeader: hostHeader).host
            } else {
                let urlHost = HTTPTransaction.urlParts(t.url).host
                t.host = urlHost.isEmpty ? hostHeader.lowercased() : urlHost
            }
            // A line without a version is HTTP/0.9's (RFC 9112 §2.3 leaves it to the recipient to read one).
            let version = request.version.isEmpty ? "HTTP/0.9" : request.version
            t.httpVersion = version
            t.networkProtocol = HTTPTransaction.normalisedProtocol(version)
            if request.version.isEmpty {
                log.add(
                    .pcapVersionlessRequest,
                    .note,
                    "request line \"\(request.startLine.prefix(200))\" has no HTTP version; read as HTTP/0.9 (no headers; the response runs to the connection's close unless a status line starts it)",
                    at: nil
                )
            } else if target.isEmpty {
                log.add(
                    .pcapRequestWithoutTarget,
                    .warning,
                    "request line \"\(request.startLine.prefix(200))\" has no target; its URL is the origin alone",
                    at: nil
                )
            }
            t.phases.requestStart = milliseconds(requestStart, from: fetchStart)
            t.phases.requestEnd = milliseconds(
                clientStream.time(at: Swift.max(request.start, request.end - 1)),
                from: fetchStart
            )
            t.sizes.requestHeaders = Int64(request.headerEnd - request.start)
            t.sizes.requestBody = Swift.max(0, request.bodyBytes)
            t.sizes.request = Int64(t.url.utf8.count) + t.sizes.requestHeaders + t.sizes.requestBody
            t.requestHeaders = redact(request.headers)
            t.provenance.unknown.append("dns")
            t.provenance.unknown.append("tls")
            if let answer = answers[position] {
                let response = finals[answer]
                t.status = response.status
                t.statusText = response.parsedStartLine.reason
                t.responseHeaders = redact(response.headers)
                t.mimeType = HTTPTransaction.headerValue("Content-Type", in: response.headers) ?? ""
                t.phases.responseStart = milliseconds(serverStream.time(at: response.start), from: fetchStart)
                t.phases.responseEnd = milliseconds(
                    serverStream.time(at: Swift.max(response.start, response.end - 1)),
                    from: fetchStart
                )
                t.sizes.responseHeaders = Int64(response.headerEnd - response.start)
                t.sizes.responseBody = Swift.max(0, response.bodyBytes)
                t.sizes.transfer = Int64(response.end - response.start) + response.missingBytes
                t.sizes.decoded = response.decodedBytes
                if response.missingBytes > 0 || !response.complete && response.end < serverStream.bytes.count {
                    log.add(
                        .pcapIncompleteResponse,
                        .note,
                        "response to \(t.method) \(t.url) is cut by a capture hole (\(response.missingBytes) bytes missing)",
                        at: nil
                    )
                } else if !response.complete {
                    t.error = context.serverDirection.resetTime != nil ? "connection reset during the response" : nil
                    log.add(
                        .pcapIncompleteResponse,
                        .note,
                        "response to \(t.method) \(t.url) is cut off in the capture",
                        at: nil
                    )
                }
                t.outcome = HTTPTransaction.outcome(status: t.status, error: t.error, hasResponse: true)
            } else if context.serverDirection.resetTime != nil || context.clientDirection.resetTime != nil {
                t.status = 0
                t.error = "connection reset before the response"
                t.outcome = .networkError
            } else {
                t.outcome = .unknown
                let why = missing > 0 ? " (the connection has capture holes)" : ""
                log.add(.pcapNoResponse, .note, "no response captured for \(t.method) \(t.url)" + why, at: nil)
            }
            for (name, value) in [("send", 0), ("wait", 1), ("receive", 2)] {
                let known: Bool
                switch value {
                case 0: known = t.phases.requestEnd >= 0 && t.phases.requestStart >= 0
                case 1: known = t.phases.responseStart >= 0 && t.phases.requestEnd >= 0
                default: known = t.phases.responseEnd >= 0 && t.phases.responseStart >= 0
                }
                if known { t.provenance.measured.append(name) } else { t.provenance.unknown.append(name) }
            }
            finish(&t)
            t.trafficType = HTTPTransaction.trafficType(mimeType: t.mimeType, method: t.method)
            out.append(t)
            // After a CONNECT's 2xx the connection is a tunnel: when TLS runs in it, read its hellos and timing.
            if t.method == "CONNECT", let status = t.status, (200..<300).contains(status),
                let answer = answers[position]
            {
                let clientTunnel = clientStream.suffix(from: request.end).beforeFirstGap()
                let serverTunnel = serverStream.suffix(from: finals[answer].end).beforeFirstGap()
                if TLSScanner.looksLikeTLS(clientTunnel.bytes) {
                    let scanner = TLSScanner(client: clientTunnel, server: serverTunnel)
                    if tunnelTLS == nil { tunnelTLS = scanner.handshake }
                    let destination = TunnelTarget(authority: target, hostHeader: hostHeader)
                    out.append(tlsTransaction(context, scanner: scanner, tunnel: destination))
                }
            }
        }
        return out
    }

    /// The encrypted transaction of a TLS connection, or of TLS inside a CONNECT tunnel (`tunnel`: it starts at
    /// the ClientHello, over a connection that is already open, through the proxy).
    ///
    /// In a tunnel the host and port are the CONNECT target's: the proxy only relays the bytes, so naming it would
    /// file every tunnelled site under the proxy. `remoteAddress`/`remotePort` stay the proxy (where the packets
    /// went) and `proxyConnection` is set.
    private func tlsTransaction(_ context: ConnectionContext, scanner: TLSScanner, tunnel: TunnelTarget? = nil)
        -> HTTPTransaction
    {
        let inTunnel = tunnel != nil
        let fetchStart =
            inTunnel
            ? scanner.clientHelloTime
            : context.flow.synTime ?? scanner.clientHelloTime ?? context.clientDirection.firstTime
        var t = base(context, fetchStart: fetchStart, firstOnConnection: !inTunnel)
        if inTunnel { t.proxyConnection = true }
        let handshake = scanner.handshake
        let fallback = tunnel.map(\.host).flatMap { $0.isEmpty ? nil : $0 } ?? context.server.address.text
        let host = handshake.serverName ?? fallback
        let port = tunnel?.port ?? Int(context.server.port)
        t.host = host.lowercased()
        t.scheme = "https"
        let named = host.contains(ascii: ":") && !host.hasPrefix("[") ? "[\(host)]" : host
        t.url = "https://" + (port == 443 ? named : "\(named):\(port)") + "/"
        t.httpVersion = handshake.alpn ?? ""
        t.networkProtocol = handshake.alpn.map(HTTPTransaction.normalisedProtocol) ?? "tls"
        if t.networkProtocol == "unknown" { t.networkProtocol = "tls" }
        t.provenance.encrypted = true
        t.tls = HTTPTransaction.TLSInfo(
            serverName: handshake.serverName,
            version: handshake.version ?? handshake.offeredVersions.first,
            cipherSuite: handshake.cipherSuite,
            alpn: handshake.alpn,
            alert: handshake.alert
        )
        if let hello = scanner.clientHelloTime {
            t.phases.secureConnectionStart = milliseconds(hello, from: fetchStart)
            if let done = scanner.handshakeDoneTime {
                t.phases.secureConnectionEnd = milliseconds(done, from: fetchStart)
                t.durations.tls = Double(done - hello) / 1e6
                t.provenance.measured.append("tls")
            } else {
                t.provenance.unknown.append("tls")
            }
        } else {
            t.provenance.unknown.append("tls")
        }
        t.provenance.unknown.append("dns")
        if let request = scanner.firstRequestTime {
            t.phases.requestStart = milliseconds(request, from: fetchStart)
            if let response = scanner.firstResponseTime {
                t.phases.responseStart = milliseconds(response, from: fetchStart)
                t.phases.responseEnd = milliseconds(scanner.lastServerTime, from: fetchStart)
                t.provenance.measured.append("wait")
                t.provenance.measured.append("receive")
            }
        }
        t.provenance.unknown.append("send")
        t.sizes.request = context.clientDirection.payloadBytes
        t.sizes.transfer = context.serverDirection.payloadBytes
        if scanner.fatalAlert {
            t.status = 0
            t.error = "TLS alert: " + (handshake.alert ?? "fatal")
            t.outcome = .networkError
            // The fetch ended when the alert came: that is the total, no phase is made up for it.
            t.durations.total = milliseconds(scanner.alertTime, from: fetchStart)
        } else if scanner.firstResponseTime == nil,
            context.serverDirection.resetTime != nil || context.clientDirection.resetTime != nil
        {
            t.status = 0
            t.error = "connection reset before the response"
            t.outcome = .networkError
        } else {
            t.outcome = .unknown
        }
        let failureTotal = t.durations.total
        finish(&t)
        if t.durations.total < 0 && failureTotal >= 0 { t.durations.total = (failureTotal * 1000).rounded() / 1000 }
        t.trafficType = .other
        return t
    }

    /// A QUIC connection as a connection record and, when the client's Initial was seen, an encrypted h3
    /// transaction: the handshake runs from the client's first Initial to its first 1-RTT packet.
    private func quicTransaction(_ flow: QUICFlow) -> (PacketAnalysis.Connection, HTTPTransaction?) {
        let start = flow.firstClientInitial
        var connection = PacketAnalysis.Connection(
            client: flow.client.text,
            server: flow.server.text,
            handshakeSeen: start != nil,
            start: start.map { CaptureTimestamp.iso8601(Double($0) / 1e9) } ?? "",
            clientBytes: flow.clientBytes,
            serverBytes: flow.serverBytes,
            application: "quic"
        )
        var handshake = PacketAnalysis.TLSHandshake(version: flow.versionName)
        handshake.serverHelloMilliseconds = milliseconds(flow.firstServerPacket, from: start)
        handshake.handshakeMilliseconds = milliseconds(flow.firstClientShort, from: start)
        connection.tls = handshake
        guard let start else { return (connection, nil) }
        var t = HTTPTransaction()
        t.remoteAddress = flow.server.address.text
        t.remotePort = Int(flow.server.port)
        t.connectionID = "\(flow.client.text)-\(flow.server.text)"
        t.startEpochSeconds = Double(start) / 1e9
        t.startedDateTime = CaptureTimestamp.iso8601(t.startEpochSeconds)
        t.host = flow.server.address.text
        t.scheme = "https"
        t.url =
            "https://" + (flow.server.address.isV6 ? "[\(flow.server.address.text)]" : flow.server.address.text) + "/"
        t.httpVersion = flow.versionName
        t.networkProtocol = "h3"
        t.reusedConnection = false
        t.provenance.encrypted = true
        t.tls = HTTPTransaction.TLSInfo(version: flow.versionName)
        t.phases.fetchStart = 0
        t.phases.secureConnectionStart = 0
        t.phases.secureConnectionEnd = milliseconds(flow.firstClientShort, from: start)
        t.durations.tls = t.phases.secureConnectionEnd
        t.phases.requestStart = t.phases.secureConnectionEnd
        t.phases.responseStart = milliseconds(flow.firstServerShortAfterRequest, from: start)
        t.phases.responseEnd = t.phases.responseStart >= 0 ? milliseconds(flow.lastServerPacket, from: start) : -1
        t.provenance.measured = ["tls", "wait", "receive"].filter { name in
            name == "tls" ? t.durations.tls >= 0 : t.phases.responseStart >= 0
        }
        t.provenance.unknown = ["dns", "connect", "send"]
        t.sizes.request = flow.clientBytes
        t.sizes.transfer = flow.serverBytes
        t.outcome = .unknown
        finish(&t)
        t.trafficType = .other
        return (connection, t)
    }

    /// Fills durations from the phase marks; send is known only when the request end is.
    private func finish(_ t: inout HTTPTransaction) {
        let p = t.phases
        func span(_ a: Double, _ b: Double) -> Double { a >= 0 && b >= a ? b - a : -1 }
        if p.requestEnd >= 0 { t.durations.send = span(p.requestStart, p.requestEnd) }
        let waitFrom = p.requestEnd >= 0 ? p.requestEnd : p.requestStart
        t.durations.wait = span(waitFrom, p.responseStart)
        t.durations.receive = span(p.responseStart, p.responseEnd)
        if p.fetchStart >= 0 {
            let end = [p.responseEnd, p.responseStart, p.requestEnd, p.secureConnectionEnd].first { $0 >= 0 } ?? -1
            if t.outcome != .unknown || p.responseEnd >= 0 { t.durations.total = end >= 0 ? end : -1 }
        }
        t.roundTimes()
    }

    private func redact(_ headers: [HTTPTransaction.Header]) -> [HTTPTransaction.Header] {
        guard options.keepHeaders else { return [] }
        guard options.redactSecrets else { return headers }
        return headers.map {
            HTTPTransaction.isSecretHeader($0.name) ? HTTPTransaction.Header(name: $0.name, value: "[redacted]") : $0
        }
    }

    /// Links each first-on-connection transaction to the latest DNS answer for its server address before the SYN
    /// (within 30 s), and moves its fetch start to the query.
    private func linkDNS(_ transactions: inout [HTTPTransaction], queries: [PendingQuery]) {
        var answers: [String: [(query: Int64, response: Int64, name: String)]] = [:]
        for query in queries where query.answered {
            guard let sent = query.time, let received = query.responseTime else { continue }
            for address in query.addresses {
                answers[address.text, default: []].append((sent, received, query.lookup.name))
            }
        }
        guard !answers.isEmpty else { return }
        for index in transactions.indices {
            var t = transactions[index]
            guard t.reusedConnection != true, let address = t.remoteAddress, let candidates = answers[address],
                t.startEpochSeconds >= 0, t.startEpochSeconds < 4.5e9
            else { continue }
            let start = Int64(saturating: (t.startEpochSeconds * 1e9).rounded())
            let window: Int64 = 30_000_000_000
            guard
                let best = candidates.filter({ $0.response <= start + 1_000_000 && start - $0.response <= window })
                    .max(by: { $0.response < $1.response })
            else { continue }
            let shift = Double(start - best.query) / 1e6
            func moved(_ value: Double) -> Double { value >= 0 ? value + shift : value }
            var p = t.phases
            p.connectStart = moved(p.connectStart)
            p.connectEnd = moved(p.connectEnd)
            p.secureConnectionStart = moved(p.secureConnectionStart)
            p.secureConnectionEnd = moved(p.secureConnectionEnd)
            p.requestStart = moved(p.requestStart)
            p.requestEnd = moved(p.requestEnd)
            p.responseStart = moved(p.responseStart)
            p.responseEnd = moved(p.responseEnd)
            p.fetchStart = 0
            p.domainLookupStart = 0
            p.domainLookupEnd = Double(best.response - best.query) / 1e6
            t.phases = p
            t.durations.dns = p.domainLookupEnd
            if t.durations.total >= 0 { t.durations.total += shift }
            t.startEpochSeconds = Double(best.query) / 1e9
            t.startedDateTime = CaptureTimestamp.iso8601(t.startEpochSeconds)
            t.provenance.unknown.removeAll { $0 == "dns" }
            t.provenance.measured.append("dns")
            if t.provenance.encrypted, t.tls?.serverName == nil { t.host = best.name.lowercased() }
            t.roundTimes()
            transactions[index] = t
        }
    }
}
