import APMInspectCore

/// Turns one HAR entry into a transaction.
struct HAREntryBuilder {
    let places: HARPlaces
    let entry: JSONElement
    let path: String
    let sslAdditive: Bool
    let connectIncludesDNS: Bool
    let wallClock: Bool
    let options: HTTPCaptureOptions
    /// False when only the figures are wanted (a summary, or the first pass of a streamed capture): vendor fields
    /// and headers, most of an entry's cost, are not copied out.
    var keepsVerbatim = true
    /// True when the transaction is written and dropped before the next is built (``HARReplay``): vendor fields are
    /// then kept as elements of the entry's parsed text and written from it, never made into values
    /// (``KeptJSONMembers``); elsewhere they are values, which do not hold the entry's text alive.
    var keepsElements = false

    /// Longest plausible phase, in ms (24 h): larger values are epoch times written into duration fields.
    static let maxPhase = 86_400_000.0

    static let entryKeys: [StaticString] = [
        "pageref", "startedDateTime", "time", "request", "response", "cache", "timings", "serverIPAddress",
        "connection",
    ]
    static let requestKeys: [StaticString] = [
        "method", "url", "httpVersion", "cookies", "headers", "queryString", "postData", "headersSize", "bodySize",
    ]
    static let responseKeys: [StaticString] = [
        "status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize",
        "bodySize",
    ]
    static let timingKeys: [StaticString] = ["blocked", "dns", "connect", "send", "wait", "receive", "ssl", "comment"]
    static let contentKeys: [StaticString] = ["size", "compression", "mimeType", "text", "encoding"]

    /// Calls `body` with the members of `object` whose keys are not in `known`: the vendor fields kept verbatim.
    ///
    /// Keys are compared on their raw bytes and only the unknown ones are decoded; decoding every key and hashing
    /// it into a `Set` cost more than the lookups of the known fields. A key written with escapes is decoded first,
    /// so `"p\u0061geref"` is still `pageref`.
    static func forEachUnknownMember(
        of object: JSONElement,
        known: [StaticString],
        _ body: (String, JSONElement) -> Void
    ) {
        object.forEachMemberRaw { raw, value in
            if raw.contains(UInt8(ascii: "\\")) {
                let key = JSONElement.decodedString(rawBytes: raw)
                if !known.contains(where: { key == "\($0)" }) { body(key, value) }
            } else if !known.contains(where: { raw.equals($0) }) {
                body(JSONElement.decodedString(rawBytes: raw), value)
            }
            return true
        }
    }

    /// A timing value as read: a value, unknown (absent, null, -1) or rejected (another negative, or absurd).
    enum Timing {
        case value(Double)
        case unknown
        case rejected
    }

    mutating func build(log: inout DiagnosticLog) -> HTTPTransaction {
        var t = HTTPTransaction()
        var extensions = KeptJSONMembers()
        if keepsVerbatim {
            Self.forEachUnknownMember(of: entry, known: Self.entryKeys) { key, value in
                extensions[key] = kept(value)
            }
        }
        if keepsVerbatim, let cache = entry.member("cache"), cache.kind == .object, cache.count > 0 {
            extensions["cache"] = kept(cache)
        }
        // Start time.
        if let started = entry.member("startedDateTime")?.string, !started.isEmpty {
            t.startedDateTime = started
            if let stamp = CaptureTimestamp(started) {
                t.startEpochSeconds = stamp.secondsSince1970
                t.provenance.startTimeAssumedUTC = stamp.zoneMissing
                if stamp.zoneMissing {
                    log.add(
                        .harDateWithoutZone,
                        .note,
                        "startedDateTime has no time zone; read as UTC",
                        at: at(entry.member("startedDateTime"), "startedDateTime")
                    )
                }
            } else {
                log.add(
                    .httpBadDate,
                    .warning,
                    "startedDateTime \"\(started)\" is not an ISO 8601 time",
                    at: at(entry.member("startedDateTime"), "startedDateTime")
                )
            }
        } else {
            log.add(.harMissingDate, .warning, "startedDateTime is missing or empty", at: at(entry, nil))
        }
        t.totalReported =
            figure(entry.member("time"), "time", "a duration in ms", &t, log: &log) {
                $0 >= 0 && $0 <= Self.maxPhase ? $0 : nil
            } ?? -1
        t.remoteAddress = entry.member("serverIPAddress")?.string.flatMap { address in
            let trimmed =
                address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
            return trimmed.isEmpty ? nil : trimmed
        }
        if let connection = entry.member("connection") {
            t.connectionID = connection.string ?? connection.rawText
        }
        t.remotePort = figure(entry.member("_serverPort"), "_serverPort", "a port", &t, log: &log) {
            (0...65_535).contains($0) ? Int(exactly: $0) : nil
        }

        // Request.
        let request = entry.member("request")
        var resourceType = entry.member("_resourceType")?.string
        if let request, request.kind == .object {
            t.method = request.member("method")?.string ?? ""
            t.url = request.member("url")?.string ?? ""
            t.httpVersion = request.member("httpVersion")?.string ?? ""
            if keepsVerbatim {
                Self.forEachUnknownMember(of: request, known: Self.requestKeys) { key, value in
                    extensions["request." + key] = kept(value)
                }
            }
        } else {
            log.add(.harMissingRequest, .warning, "entry has no request", at: at(entry, nil))
        }
        let requestHeaders = headers(request?.member("headers"))
        let parts = HTTPTransaction.urlParts(t.url)
        t.scheme = parts.scheme
        // Looked up once: the protocol below asks again whether there is one.
        let authority = HTTPTransaction.headerValue(":authority", in: requestHeaders)
        t.host =
            authority.map { HTTPTransaction.urlParts("x://" + $0).host }
            ?? (parts.host.isEmpty
                ? HTTPTransaction.headerValue("Host", in: requestHeaders).map {
                    HTTPTransaction.urlParts("x://" + $0).host
                }
                    ?? "" : parts.host)
        if t.remotePort == nil, let port = parts.port { t.remotePort = port }
        if t.remotePort == nil, let connection = t.connectionID, let port = Int(connection), port == 80 || port == 443 {
            t.remotePort = port
        }
        t.proxyConnection = t.method == "CONNECT" ? true : nil

        // Response.
        let response = entry.member("response")
        let hasResponse = response.map { $0.kind == .object } ?? false
        var responseHeadersElement: JSONElement?
        var errorText = entry.member("_error")?.string
        if let response, response.kind == .object {
            t.status = figure(response.member("status"), "response.status", "an HTTP status", &t, log: &log) {
                $0 >= 0 && $0 <= 999 ? Int(exactly: $0.rounded()) : nil
            }
            t.statusText = response.member("statusText")?.string ?? ""
            let responseVersion = response.member("httpVersion")?.string ?? ""
            if !responseVersion.isEmpty { t.httpVersion = responseVersion }
            responseHeadersElement = response.member("headers")
            if let error = response.member("_error")?.string, !error.isEmpty { errorText = error }
            if keepsVerbatim {
                Self.forEachUnknownMember(of: response, known: Self.responseKeys) { key, value in
                    extensions["response." + key] = kept(value)
                }
            }
            if let content = response.member("content"), content.kind == .object {
                t.mimeType = content.member("mimeType")?.string ?? ""
                if let size = byteCount(content.member("size"), "response.content.size", &t, log: &log) {
                    t.sizes.decoded = size
                    // A browser may write `size: 0` with the whole body in `text`: the text is the body then, and
                    // the 0 as written is kept in the extensions.
                    if size == 0, let length = Self.textLength(content), length > 0,
                        let written = content.member("size")
                    {
                        t.sizes.decoded = length
                        t.keptExtensions["response.content.size"] = kept(written)
                    }
                }
                if keepsVerbatim {
                    Self.forEachUnknownMember(of: content, known: Self.contentKeys) { key, value in
                        extensions["response.content." + key] = kept(value)
                    }
                }
            }
        } else {
            log.add(
                .harMissingResponse,
                .warning,
                "entry has no response (counted as a network error)",
                at: at(entry, nil)
            )
        }
        // The response headers are read into `Header`s only when they are kept or their Content-Type is wanted: the
        // light pass of a streamed capture would otherwise make a string of each name and value for nothing.
        let keepsResponseHeaders = options.keepHeaders && keepsVerbatim
        var responseHeaders: [HTTPTransaction.Header] = []
        if keepsResponseHeaders || t.mimeType.isEmpty { responseHeaders = headers(responseHeadersElement) }
        if t.mimeType.isEmpty, let type = HTTPTransaction.headerValue("Content-Type", in: responseHeaders) {
            t.mimeType = type
        }
        if let error = errorText, !error.isEmpty { t.error = error }
        t.networkProtocol = HTTPTransaction.normalisedProtocol(t.httpVersion)
        if t.networkProtocol == "unknown", authority != nil {
            t.networkProtocol = "h2"
        }
        t.outcome = HTTPTransaction.outcome(
            status: t.status ?? (hasResponse ? nil : 0),
            error: t.error,
            hasResponse: hasResponse
        )
        if resourceType == nil, let fetch = entry.member("_fetchType")?.string { resourceType = fetch }
        t.trafficType = HTTPTransaction.trafficType(mimeType: t.mimeType, resourceType: resourceType, method: t.method)

        // Sizes.
        sizes(&t, log: &log, request: request, response: response, requestHeaders: requestHeaders)

        // Cache.
        if let fromCache = entry.member("_fromCache")?.string, !fromCache.isEmpty { t.fromCache = true }
        if let fetchType = entry.member("_fetchType")?.string, fetchType.contains(ascii: "Cache") { t.fromCache = true }

        // Timings.
        timings(&t, log: &log, response: response)

        if keepsResponseHeaders {
            t.requestHeaders = requestHeaders
            t.responseHeaders = responseHeaders
        }
        // The values refused and the timings' vendor fields, already in `t.extensions`, win over the entry's of the
        // same key. The smaller dictionary is merged into the larger: merging every entry's vendor fields into a
        // dictionary holding one or none rehashed them all (2 % of `http --format json` on a HAR).
        if t.keptExtensions.count >= extensions.count {
            t.keptExtensions.merge(extensions, otherWins: false)
        } else {
            extensions.merge(t.keptExtensions, otherWins: true)
            t.keptExtensions = extensions
        }
        return t
    }

    /// The length in bytes of the body `content.text` holds; nil without text.
    ///
    /// Its base64 decoded (4 data characters are 3 bytes; padding and line breaks are not data) when `encoding` is
    /// `base64`, else its UTF-8 bytes.
    static func textLength(_ content: JSONElement) -> Int64? {
        guard let text = content.member("text")?.string else { return nil }
        guard content.member("encoding")?.string?.lowercased() == "base64" else { return Int64(text.utf8.count) }
        var data: Int64 = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "="), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): break
            default: data += 1
            }
        }
        return data / 4 * 3 + Swift.max(0, data % 4 - 1)
    }

    /// A vendor value as the transaction keeps it (``keepsElements``).
    private func kept(_ element: JSONElement) -> KeptJSONMembers.Member {
        keepsElements ? .element(element) : .value(element.materialized)
    }

    /// ``HTTPCaptureParsing/figure(_:_:unfit:)`` for the number at `key`: a value refused is a warning at its key
    /// path, and its JSON is kept in the transaction's extensions under `key`.
    private func figure<T>(
        _ element: JSONElement?,
        _ key: String,
        _ what: String,
        _ t: inout HTTPTransaction,
        log: inout DiagnosticLog,
        _ read: (Double) -> T?
    ) -> T? {
        var refused: JSONElement?
        let value = HTTPCaptureParsing.figure(element, read) { refused = $0 }
        if let refused {
            log.add(.httpUnfitValue, .warning, unfitFigureMessage(key, refused, what), at: at(refused, key))
            t.keptExtensions[key] = kept(refused)
        }
        return value
    }

    /// ``byteCount(_:)`` as a ``figure(_:_:_:_:log:_:)``: a refused size is said and kept.
    private func byteCount(
        _ element: JSONElement?,
        _ key: String,
        _ t: inout HTTPTransaction,
        log: inout DiagnosticLog
    ) -> Int64? {
        figure(element, key, "a byte count", &t, log: &log) { _ in HTTPCaptureParsing.byteCount(element) }
    }

    private func at(_ element: JSONElement?, _ key: String?) -> SourceLocation? {
        guard let element else { return nil }
        return places.location(element, key.map { path + "." + $0 } ?? path)
    }

    private func headers(_ element: JSONElement?) -> [HTTPTransaction.Header] {
        guard let element, element.kind == .array else { return [] }
        var out: [HTTPTransaction.Header] = []
        out.reserveCapacity(element.count)
        for item in element.elements {
            var name: String?
            var value: String?
            switch item.kind {
            case .object:
                name = item.member("name")?.string
                let written = item.member("value")
                value = written?.string ?? written?.rawText
            case .array:
                // Slack writes headers as [name, value] pairs.
                var iterator = item.elements.makeIterator()
                name = iterator.next()?.string
                value = iterator.next()?.string
            default:
                break
            }
            guard let name else { continue }
            let shown = options.redactSecrets && HTTPTransaction.isSecretHeader(name) ? "[redacted]" : (value ?? "")
            out.append(HTTPTransaction.Header(name: name, value: shown))
        }
        return out
    }

    private func sizes(
        _ t: inout HTTPTransaction,
        log: inout DiagnosticLog,
        request: JSONElement?,
        response: JSONElement?,
        requestHeaders: [HTTPTransaction.Header]
    ) {
        if let size = byteCount(request?.member("headersSize"), "request.headersSize", &t, log: &log) {
            t.sizes.requestHeaders = size
        } else if !requestHeaders.isEmpty {
            // No raw header text (HTTP/2, HTTP/3): count the header block as HTTP/1.1 would write it.
            var count = t.method.utf8.count + 1 + t.url.utf8.count + 1 + t.httpVersion.utf8.count + 2 + 2
            for header in requestHeaders where !header.name.hasPrefix(":") {
                count += header.name.utf8.count + 2 + header.value.utf8.count + 2
            }
            t.sizes.requestHeaders = Int64(count)
        }
        if let size = byteCount(request?.member("bodySize"), "request.bodySize", &t, log: &log) {
            t.sizes.requestBody = size
        } else if let text = request?.member("postData")?.member("text"), text.kind == .string {
            t.sizes.requestBody = Int64(text.rawBytes.count)
        } else if request != nil {
            t.sizes.requestBody = 0
        }
        if t.sizes.requestHeaders >= 0 || t.sizes.requestBody >= 0 {
            t.sizes.request =
                Int64(t.url.utf8.count) + Swift.max(0, t.sizes.requestHeaders) + Swift.max(0, t.sizes.requestBody)
        }
        if let size = byteCount(response?.member("headersSize"), "response.headersSize", &t, log: &log) {
            t.sizes.responseHeaders = size
        }
        if let size = byteCount(response?.member("bodySize"), "response.bodySize", &t, log: &log) {
            t.sizes.responseBody = size
        }
        if let transfer = byteCount(response?.member("_transferSize"), "response._transferSize", &t, log: &log)
            ?? byteCount(entry.member("_transferSize"), "_transferSize", &t, log: &log)
        {
            t.sizes.transfer = transfer
        } else if t.sizes.responseHeaders >= 0, t.sizes.responseBody >= 0 {
            t.sizes.transfer = t.sizes.responseHeaders + t.sizes.responseBody
        }
    }

    private func timing(_ timings: JSONElement?, _ key: StaticString, log: inout DiagnosticLog) -> Timing {
        guard let element = timings?.member(key) else { return .unknown }
        guard let value = number(element) else { return .unknown }
        if value == -1 { return .unknown }
        if value < 0 || value > Self.maxPhase || !value.isFinite {
            log.add(
                .harBadTiming,
                .warning,
                "timings.\(key) = \(element.rawText ?? "?") is not a duration; treated as unknown",
                at: at(element, "timings.\(key)")
            )
            return .rejected
        }
        return .value(value)
    }

    /// The seven HAR phases as read; nil when unknown or rejected.
    ///
    /// Fields rather than a `[String: Double]`: hashing the keys and the dictionary's storage cost about 14,000
    /// instructions an entry, more than the rest of the phase arithmetic.
    private struct PhaseValues {
        var blocked: Double?
        var dns: Double?
        var connect: Double?
        var ssl: Double?
        var send: Double?
        var wait: Double?
        var receive: Double?

        /// True when at least one phase was read and every phase read is 0.
        var allReadAreZero: Bool {
            var any = false
            for value in [blocked, dns, connect, ssl, send, wait, receive] {
                guard let value else { continue }
                if value != 0 { return false }
                any = true
            }
            return any
        }
    }

    /// The names the provenance lists give the seven phases, in the order ``timings(_:log:response:)`` reads them.
    static let phaseNames = ["blocked", "dns", "connect", "tls", "send", "wait", "receive"]

    /// Adds each phase's name to the provenance list its reading belongs in, in phase order.
    static func recordProvenance(of readings: [Timing], in provenance: inout HTTPTransaction.Provenance) {
        var counts = (measured: 0, unknown: 0, rejected: 0)
        for reading in readings {
            switch reading {
            case .value: counts.measured += 1
            case .unknown: counts.unknown += 1
            case .rejected: counts.rejected += 1
            }
        }
        if counts.measured > 0 { provenance.measured.reserveCapacity(provenance.measured.count + counts.measured) }
        if counts.unknown > 0 { provenance.unknown.reserveCapacity(provenance.unknown.count + counts.unknown) }
        if counts.rejected > 0 { provenance.rejected.reserveCapacity(provenance.rejected.count + counts.rejected) }
        for (reading, name) in zip(readings, phaseNames) {
            switch reading {
            case .value: provenance.measured.append(name)
            case .unknown: provenance.unknown.append(name)
            case .rejected: provenance.rejected.append(name)
            }
        }
    }

    private mutating func timings(_ t: inout HTTPTransaction, log: inout DiagnosticLog, response: JSONElement?) {
        let timings = entry.member("timings")
        if keepsVerbatim, let timings, timings.kind == .object {
            Self.forEachUnknownMember(of: timings, known: Self.timingKeys) { key, value in
                t.keptExtensions["timings." + key] = kept(value)
            }
        }
        // Read first and sorted into the provenance lists after, each made at its final size: appended one by one,
        // the lists grew through several allocations per entry.
        let readings = [
            timing(timings, "blocked", log: &log), timing(timings, "dns", log: &log),
            timing(timings, "connect", log: &log), timing(timings, "ssl", log: &log),
            timing(timings, "send", log: &log), timing(timings, "wait", log: &log),
            timing(timings, "receive", log: &log),
        ]
        Self.recordProvenance(of: readings, in: &t.provenance)
        func value(_ k: Int) -> Double? {
            if case .value(let v) = readings[k] { return v }
            return nil
        }
        var values = PhaseValues()
        values.blocked = value(0)
        values.dns = value(1)
        values.connect = value(2)
        values.ssl = value(3)
        values.send = value(4)
        values.wait = value(5)
        values.receive = value(6)
        let timingsEmpty = timings.map { $0.kind != .object || $0.count == 0 } ?? true
        let responseHeadersSize = number(response?.member("headersSize"))
        if !t.fromCache, t.status.map({ $0 > 0 }) ?? false {
            let allZero = values.allReadAreZero && t.totalReported <= 0
            if timingsEmpty && responseHeadersSize == nil || allZero && (responseHeadersSize ?? 0) <= 0 {
                // Firefox writes cache hits with empty or all-zero timings and no header bytes.
                t.fromCache = true
                t.provenance.cacheInferred = true
            }
        }
        if timingsEmpty && !t.fromCache {
            log.add(.harEmptyTimings, .note, "timings are empty: phases unknown", at: at(entry, nil))
        }
        let ssl = values.ssl
        if let ssl, ssl >= 0, values.connect != nil {
            t.provenance.sslIncludedInConnect = !sslAdditive
        }
        t.provenance.timeIsWallClock = wallClock
        t.provenance.connectIncludesDNS = connectIncludesDNS && values.connect != nil
        var d = HTTPTransaction.Durations()
        d.blocked = values.blocked ?? -1
        d.dns = values.dns ?? -1
        d.send = values.send ?? -1
        d.wait = values.wait ?? -1
        d.receive = values.receive ?? -1
        if let connect = values.connect {
            if let ssl, !sslAdditive {
                d.connect = Swift.max(0, connect - ssl)
                d.tls = Swift.min(ssl, connect)
            } else {
                d.connect = connect
                d.tls = ssl ?? -1
            }
        } else if let ssl {
            d.tls = ssl
        }
        // Phase marks from the start: blocked → dns → connect (ssl at its end, or after it) → send → wait → receive.
        var p = HTTPTransaction.Phases()
        var cursor = 0.0
        p.fetchStart = 0
        if let blocked = values.blocked { cursor += blocked }
        if let dns = values.dns {
            p.domainLookupStart = cursor
            p.domainLookupEnd = cursor + dns
            cursor += dns
        }
        if let connect = values.connect {
            p.connectStart = cursor
            if let ssl {
                if sslAdditive {
                    p.connectEnd = cursor + connect
                    p.secureConnectionStart = p.connectEnd
                    p.secureConnectionEnd = p.connectEnd + ssl
                    cursor = p.secureConnectionEnd
                } else {
                    p.connectEnd = cursor + connect
                    p.secureConnectionStart = cursor + Swift.max(0, connect - ssl)
                    p.secureConnectionEnd = p.connectEnd
                    cursor = p.connectEnd
                }
            } else {
                p.connectEnd = cursor + connect
                cursor = p.connectEnd
            }
        } else if let ssl {
            p.secureConnectionStart = cursor
            p.secureConnectionEnd = cursor + ssl
            cursor += ssl
        }
        if let send = values.send, let wait = values.wait {
            p.requestStart = cursor
            p.requestEnd = cursor + send
            p.responseStart = p.requestEnd + wait
            if let receive = values.receive {
                p.responseEnd = p.responseStart + receive
            }
        }
        if p.responseEnd >= 0 && !wallClock {
            d.total = p.responseEnd
        } else if t.totalReported >= 0 {
            d.total = t.totalReported
        }
        if wallClock, t.totalReported >= 0 { p.responseEnd = t.totalReported }
        if t.startEpochSeconds < 0 && p.responseEnd < 0 { p.fetchStart = -1 }
        // A reused connection: connect written as -1 (not absent) while the request was sent.
        if let connectElement = timings?.member("connect"), number(connectElement) == -1, values.send != nil,
            t.outcome != .networkError
        {
            t.reusedConnection = true
        } else if values.connect != nil {
            t.reusedConnection = false
        }
        if t.proxyConnection == nil, timings?.member("_blocked_proxy").flatMap(number).map({ $0 > 0 }) == true {
            t.proxyConnection = true
        }
        t.durations = d
        t.phases = p
        t.roundTimes()
    }
}
