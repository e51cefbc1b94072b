import APMInspectCore

// A capture has transactions by the hundred thousand, each some sixty members: written directly, they go straight
// to the output instead of through the encoder's member keeping and sorting (most of the time of
// `http --format json`).
extension HTTPTransaction: JSONDirectEncodable {
    /// The members the synthesised `encode(to:)` writes, in key order.
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("connectionID", connectionID)
        object.write("durations", durations)
        object.write("error", error)
        object.write("extensions", keptExtensions)
        object.write("fromCache", fromCache)
        object.write("host", host)
        object.write("httpVersion", httpVersion)
        object.write("index", index)
        object.write("method", method)
        object.write("mimeType", mimeType)
        object.write("networkProtocol", networkProtocol)
        object.write("outcome", outcome.rawValue)
        object.write("phases", phases)
        object.write("provenance", provenance)
        object.write("proxyConnection", proxyConnection)
        object.write("remoteAddress", remoteAddress)
        object.write("remotePort", remotePort)
        object.write("requestHeaders", requestHeaders)
        object.write("responseHeaders", responseHeaders)
        object.write("reusedConnection", reusedConnection)
        object.write("scheme", scheme)
        object.write("sizes", sizes)
        object.write("startEpochSeconds", startEpochSeconds)
        object.write("startedDateTime", startedDateTime)
        object.write("status", status)
        object.write("statusText", statusText)
        object.write("tls", tls)
        object.write("totalReported", totalReported)
        object.write("trafficType", trafficType.rawValue)
        object.write("url", url)
    }
}

extension HTTPTransaction.Phases: JSONDirectEncodable {
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("connectEnd", connectEnd)
        object.write("connectStart", connectStart)
        object.write("domainLookupEnd", domainLookupEnd)
        object.write("domainLookupStart", domainLookupStart)
        object.write("fetchStart", fetchStart)
        object.write("requestEnd", requestEnd)
        object.write("requestStart", requestStart)
        object.write("responseEnd", responseEnd)
        object.write("responseStart", responseStart)
        object.write("secureConnectionEnd", secureConnectionEnd)
        object.write("secureConnectionStart", secureConnectionStart)
    }
}

extension HTTPTransaction.Durations: JSONDirectEncodable {
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("blocked", blocked)
        object.write("connect", connect)
        object.write("dns", dns)
        object.write("receive", receive)
        object.write("send", send)
        object.write("tls", tls)
        object.write("total", total)
        object.write("wait", wait)
    }
}

extension HTTPTransaction.Sizes: JSONDirectEncodable {
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("decoded", decoded)
        object.write("request", request)
        object.write("requestBody", requestBody)
        object.write("requestHeaders", requestHeaders)
        object.write("responseBody", responseBody)
        object.write("responseHeaders", responseHeaders)
        object.write("transfer", transfer)
    }
}

extension HTTPTransaction.Header: JSONDirectEncodable {
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("name", name)
        object.write("value", value)
    }
}

extension HTTPTransaction.TLSInfo: JSONDirectEncodable {
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("alert", alert)
        object.write("alpn", alpn)
        object.write("cipherSuite", cipherSuite)
        object.write("serverName", serverName)
        object.write("version", version)
    }
}

extension HTTPTransaction.Provenance: JSONDirectEncodable {
    package func writeJSONMembers(into object: inout JSONObjectWriter) {
        object.write("cacheInferred", cacheInferred)
        object.write("connectIncludesDNS", connectIncludesDNS)
        object.write("encrypted", encrypted)
        object.write("measured", measured)
        object.write("rejected", rejected)
        object.write("sslIncludedInConnect", sslIncludedInConnect)
        object.write("startTimeAssumedUTC", startTimeAssumedUTC)
        object.write("timeIsWallClock", timeIsWallClock)
        object.write("unknown", unknown)
    }
}
