import APMInspectCore

/// One Charles transaction as both session formats (`.chlsj`, `.chlsx`) describe it, before it becomes a
/// ``HTTPTransaction``.
struct CharlesRecord {
    var status = ""
    var method = ""
    var protocolVersion = ""
    var scheme = ""
    var host = ""
    var port: Int?
    var path = ""
    var query = ""
    var tunnel = false
    var keptAlive: Bool?
    var remoteAddress: String?
    /// Absolute times as written, and parsed.
    var startText = ""
    var start: Double?
    var requestBegin: Double?
    var requestComplete: Double?
    var responseBegin: Double?
    var end: Double?
    var zoneMissing = false
    /// Durations in ms; nil when not given (null on a reused connection).
    var dns: Double?
    var connect: Double?
    var ssl: Double?
    var requestDuration: Double?
    var latency: Double?
    var responseDuration: Double?
    var total: Double?
    var responseStatus: Int?
    var responseMimeType = ""
    var requestHeaderBytes: Int64 = -1
    var requestBodyBytes: Int64 = -1
    var responseHeaderBytes: Int64 = -1
    var responseBodyBytes: Int64 = -1
    var totalSize: Int64 = -1
    var tlsProtocol: String?
    var cipherSuite: String?
    var alpn: String?
    var errorMessage: String?
    var requestHeaders: [HTTPTransaction.Header] = []
    var responseHeaders: [HTTPTransaction.Header] = []
    var hasResponse = false
    var extensions: [String: JSONValue] = [:]

    /// The transaction: phases from the absolute times where given, from the durations otherwise.
    func transaction(redact: Bool) -> HTTPTransaction {
        var t = HTTPTransaction()
        t.method = method
        t.scheme = scheme.lowercased()
        t.host = host.lowercased()
        let defaultPort = t.scheme == "https" ? 443 : 80
        // An IPv6 host is written in brackets, or its colons would read as a port.
        let urlHost = host.contains(":") && !host.hasPrefix("[") ? "[" + host + "]" : host
        var url = t.scheme.isEmpty ? "" : t.scheme + "://" + urlHost
        if let port, port != defaultPort, !url.isEmpty { url += ":\(port)" }
        url += path
        if !query.isEmpty { url += "?" + query }
        t.url = url
        t.httpVersion = protocolVersion
        t.networkProtocol = HTTPTransaction.normalisedProtocol(alpn ?? protocolVersion)
        if t.networkProtocol == "unknown" { t.networkProtocol = HTTPTransaction.normalisedProtocol(protocolVersion) }
        t.status = hasResponse ? responseStatus : (responseStatus ?? 0)
        let failed = !status.isEmpty && status.uppercased() != "COMPLETE" && responseStatus == nil
        if let errorMessage, !errorMessage.isEmpty {
            t.error = errorMessage
        } else if failed {
            t.error = "Charles status \(status)"
        }
        t.outcome = HTTPTransaction.outcome(status: t.status, error: t.error, hasResponse: hasResponse || !failed)
        t.mimeType = responseMimeType
        t.trafficType = HTTPTransaction.trafficType(mimeType: t.mimeType, method: method)
        t.startedDateTime = startText
        t.startEpochSeconds = start ?? -1
        t.provenance.startTimeAssumedUTC = zoneMissing
        t.proxyConnection = tunnel ? true : nil
        t.remoteAddress = remoteAddress
        t.remotePort = port
        t.totalReported = total ?? -1
        if let alpn, t.scheme == "https" || tlsProtocol != nil || ssl != nil {
            t.tls = HTTPTransaction.TLSInfo(version: tlsProtocol, cipherSuite: cipherSuite, alpn: alpn)
        } else if tlsProtocol != nil || cipherSuite != nil {
            t.tls = HTTPTransaction.TLSInfo(version: tlsProtocol, cipherSuite: cipherSuite)
        }
        // Durations: dns/connect/ssl are null on a reused connection.
        var d = HTTPTransaction.Durations()
        var p = HTTPTransaction.Phases()
        var provenance = HTTPTransaction.Provenance()
        func mark(_ name: String, _ value: Double?) {
            if value != nil { provenance.measured.append(name) } else { provenance.unknown.append(name) }
        }
        mark("dns", dns)
        mark("connect", connect)
        mark("tls", ssl)
        d.dns = dns ?? -1
        d.connect = connect ?? -1
        d.tls = ssl ?? -1
        if keptAlive == true || (dns == nil && connect == nil && ssl == nil && requestBegin != nil) {
            t.reusedConnection = true
        } else if connect != nil {
            t.reusedConnection = false
        }
        let setup = (dns ?? 0) + (connect ?? 0) + (ssl ?? 0)
        if let start {
            p.fetchStart = 0
            func offset(_ time: Double?) -> Double { time.map { (($0 - start) * 1e6).rounded() / 1000 } ?? -1 }
            p.requestStart = offset(requestBegin)
            p.requestEnd = offset(requestComplete)
            p.responseStart = offset(responseBegin)
            p.responseEnd = offset(end)
            // Connection set-up sits before the request: dns, then connect, then ssl (on top when it fits).
            let anchor = p.requestStart >= 0 ? p.requestStart : setup
            var cursor = Swift.max(0, anchor - setup)
            let additive = anchor + 0.5 >= setup
            provenance.sslIncludedInConnect = ssl != nil && connect != nil ? !additive : nil
            if !additive, let ssl, let connect {
                // ssl inside connect: the durations do not fit before the request otherwise.
                d.connect = Swift.max(0, connect - ssl)
                cursor = Swift.max(0, anchor - (dns ?? 0) - connect)
            }
            if let dns {
                p.domainLookupStart = cursor
                p.domainLookupEnd = cursor + dns
                cursor += dns
            }
            if let connect {
                p.connectStart = cursor
                p.connectEnd = cursor + (additive ? connect : connect)
                if let ssl {
                    p.secureConnectionStart = additive ? p.connectEnd : p.connectEnd - Swift.min(ssl, connect)
                    p.secureConnectionEnd = additive ? p.connectEnd + ssl : p.connectEnd
                }
            } else if let ssl {
                p.secureConnectionStart = cursor
                p.secureConnectionEnd = cursor + ssl
            }
        }
        d.send = p.requestEnd >= 0 && p.requestStart >= 0 ? p.requestEnd - p.requestStart : requestDuration ?? -1
        d.wait = p.responseStart >= 0 && p.requestEnd >= 0 ? p.responseStart - p.requestEnd : latency ?? -1
        d.receive =
            p.responseEnd >= 0 && p.responseStart >= 0 ? p.responseEnd - p.responseStart : responseDuration ?? -1
        d.total = p.responseEnd >= 0 ? p.responseEnd : total ?? -1
        for (name, value) in [("send", d.send), ("wait", d.wait), ("receive", d.receive)] {
            if value >= 0 { provenance.measured.append(name) } else { provenance.unknown.append(name) }
        }
        t.durations = d
        t.phases = p
        t.provenance = provenance
        t.roundTimes()
        t.sizes.requestHeaders = requestHeaderBytes
        t.sizes.requestBody = requestBodyBytes
        t.sizes.request = Int64(url.utf8.count) + Swift.max(0, requestHeaderBytes) + Swift.max(0, requestBodyBytes)
        t.sizes.responseHeaders = responseHeaderBytes
        t.sizes.responseBody = responseBodyBytes
        if responseHeaderBytes >= 0, responseBodyBytes >= 0 {
            t.sizes.transfer = responseHeaderBytes + responseBodyBytes
        }
        let redacted: ([HTTPTransaction.Header]) -> [HTTPTransaction.Header] = { headers in
            guard redact else { return headers }
            return headers.map {
                HTTPTransaction.isSecretHeader($0.name)
                    ? HTTPTransaction.Header(name: $0.name, value: "[redacted]") : $0
            }
        }
        t.requestHeaders = redacted(requestHeaders)
        t.responseHeaders = redacted(responseHeaders)
        if t.host.isEmpty, let host = HTTPTransaction.headerValue("Host", in: requestHeaders) {
            t.host = HTTPTransaction.urlParts("x://" + host).host
        }
        t.extensions = extensions
        return t
    }
}
