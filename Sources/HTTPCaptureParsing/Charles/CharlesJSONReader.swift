import APMInspectCore

/// Reads Charles Proxy `.chlsj` sessions: a JSON array of transactions with absolute `times` and `durations`.
package struct CharlesJSONReader: Sendable {
    package var options: HTTPCaptureOptions

    package init(options: HTTPCaptureOptions = HTTPCaptureOptions()) {
        self.options = options
    }

    static let knownKeys: Set<String> = [
        "status", "method", "protocolVersion", "scheme", "host", "port", "actualPort", "path", "query", "tunnel",
        "keptAlive", "remoteAddress", "times", "durations", "request", "response", "totalSize", "ssl", "alpn",
        "errorMessage", "error",
    ]

    /// True when `root` is shaped like a `.chlsj` session (an array of objects with Charles keys).
    package static func looksLikeCharles(_ root: JSONElement) -> Bool {
        guard root.kind == .array else { return false }
        var iterator = root.elements.makeIterator()
        // The first transaction is parsed when the document kept it opaque (see ``itemDepth``).
        guard let first = iterator.next().flatMap(HARReader.expand), first.kind == .object else { return false }
        return first.member("host") != nil && (first.member("times") != nil || first.member("durations") != nil)
    }

    /// The nesting level of a transaction (the top-level array is 1): a document parsed with containers from here
    /// kept opaque (`JSONParseOptions.opaqueDepth`) holds one node per transaction, each parsed when it is read.
    package static let itemDepth = 2

    /// Reads a parsed `.chlsj` document.
    ///
    /// - Throws: ``HTTPCaptureError`` when the document is not an array of transactions.
    package func read(_ document: JSONDocument) throws(HTTPCaptureError) -> (HTTPCapture, [Diagnostic]) {
        try HTTPCapture.keepingTransactions { body throws(HTTPCaptureError) in try visit(document, body) }
    }

    /// Reads a parsed `.chlsj` document (whole, or with its transactions opaque: see ``itemDepth``), handing each
    /// transaction to `body` in file order instead of keeping it.
    ///
    /// The capture returned has no transactions; `index` of each transaction handed over is its position among the
    /// readable ones, before any sorting.
    ///
    /// - Throws: ``HTTPCaptureError`` when the document is not an array of transactions.
    package func visit(
        _ document: JSONDocument,
        _ body: (HTTPTransaction) -> Void
    ) throws(HTTPCaptureError) -> (HTTPCapture, [Diagnostic]) {
        let root = document.root
        guard root.kind == .array else {
            throw HTTPCaptureError(
                .wrongKind,
                "not a Charles session: the top level is not an array",
                at: loc(document, root)
            )
        }
        var log = DiagnosticLog()
        var position = 0
        var kept = 0
        for opaqueItem in root.elements {
            defer { position += 1 }
            guard let item = HARReader.expand(opaqueItem) else {
                log.add(
                    .charlesItemUnreadable,
                    .warning,
                    "transaction \(position) is not readable JSON; skipped",
                    at: loc(document, opaqueItem)
                )
                continue
            }
            if item.document !== document {
                // Repairs inside the transaction, found when it was parsed on its own.
                for diagnostic in item.document.diagnostics {
                    log.add(diagnostic)
                }
            }
            guard item.kind == .object else {
                log.add(
                    .charlesItemNotObject,
                    .warning,
                    "transaction \(position) is not an object; skipped",
                    at: loc(document, item)
                )
                continue
            }
            var record = CharlesRecord()
            // A number that does not fit its field: said at its path and kept in the record's extensions.
            var unfit: [(key: String, element: JSONElement, what: String)] = []
            func fit<T>(_ element: JSONElement?, _ key: String, _ what: String, _ read: (Double) -> T?) -> T? {
                figure(element, read) { unfit.append((key, $0, what)) }
            }
            record.status = item.member("status")?.string ?? ""
            record.method = item.member("method")?.string ?? ""
            record.protocolVersion = item.member("protocolVersion")?.string ?? ""
            record.scheme = item.member("scheme")?.string ?? ""
            record.host = item.member("host")?.string ?? ""
            let port: (Double) -> Int? = { (0...65_535).contains($0) ? Int(exactly: $0) : nil }
            let portNumber =
                fit(item.member("actualPort"), "actualPort", "a port", port)
                ?? fit(item.member("port"), "port", "a port", port)
            record.port = portNumber
            record.path = item.member("path")?.string ?? ""
            record.query = item.member("query")?.string ?? ""
            record.tunnel = item.member("tunnel")?.bool ?? false
            record.keptAlive = item.member("keptAlive")?.bool
            record.remoteAddress = item.member("remoteAddress")?.string
            record.errorMessage = item.member("errorMessage")?.string ?? item.member("error")?.string
            if let times = item.member("times"), times.kind == .object {
                func time(_ key: String) -> Double? {
                    guard let text = times[key]?.string, let stamp = CaptureTimestamp(text) else { return nil }
                    if stamp.zoneMissing { record.zoneMissing = true }
                    return stamp.secondsSince1970
                }
                record.startText = times.member("start")?.string ?? ""
                record.start = time("start")
                record.requestBegin = time("requestBegin")
                record.requestComplete = time("requestComplete")
                record.responseBegin = time("responseBegin")
                record.end = time("end")
                if record.start == nil {
                    log.add(
                        .httpBadDate,
                        .warning,
                        "times.start is missing or not an ISO 8601 time",
                        at: loc(document, times, "[\(position)].times.start")
                    )
                }
            }
            if let durations = item.member("durations"), durations.kind == .object {
                func duration(_ key: String) -> Double? {
                    fit(durations[key], "durations." + key, "a duration in ms") {
                        $0 >= 0 && $0 <= HAREntryBuilder.maxPhase ? $0 : nil
                    }
                }
                for phase in CharlesRecord.durationFields { record[keyPath: phase.field] = duration(phase.json) }
            }
            if let request = item.member("request"), request.kind == .object {
                readMessage(request, into: &record, isResponse: false, fit)
            }
            if let response = item.member("response"), response.kind == .object {
                record.hasResponse = true
                let status = fit(response.member("status"), "response.status", "an HTTP status") {
                    $0 >= 0 && $0 <= 999 ? Int(exactly: $0) : nil
                }
                record.responseStatus = status
                readMessage(response, into: &record, isResponse: true, fit)
            }
            let totalSize = fit(item.member("totalSize"), "totalSize", "a byte count") { _ in
                byteCount(item.member("totalSize"))
            }
            record.totalSize = totalSize ?? -1
            if let ssl = item.member("ssl"), ssl.kind == .object {
                record.tlsProtocol = ssl.member("protocol")?.string
                record.cipherSuite = ssl.member("cipherSuite")?.string
            }
            record.alpn = item.member("alpn")?.member("protocol")?.string
            item.forEachMember { key, value in
                if !Self.knownKeys.contains(key) { record.extensions[key] = value.materialized }
            }
            for (key, element, what) in unfit {
                log.add(
                    .httpUnfitValue,
                    .warning,
                    unfitFigureMessage(key, element, what),
                    at: loc(document, element, "[\(position)].\(key)")
                )
                record.extensions[key] = element.materialized
            }
            var transaction = record.transaction(redact: options.redactSecrets)
            transaction.index = kept
            kept += 1
            body(transaction)
        }
        return (HTTPCapture(source: .charlesJSON, creator: "Charles Proxy"), document.diagnostics + log.finished())
    }

    /// Reads one side of a transaction; `fit` reads a number and records one that does not fit (kept in the
    /// record's extensions with a warning at its path).
    private func readMessage(
        _ message: JSONElement,
        into record: inout CharlesRecord,
        isResponse: Bool,
        _ fit: (JSONElement?, String, String, (Double) -> Int64?) -> Int64?
    ) {
        let sizes = message.member("sizes")
        let side = isResponse ? "response" : "request"
        func bytes(_ element: JSONElement?, _ key: String) -> Int64 {
            fit(element, "\(side).sizes.\(key)", "a byte count") { _ in byteCount(element) } ?? -1
        }
        let headerBytes = bytes(sizes?.member("headers"), "headers")
        let bodyBytes = bytes(sizes?.member("body"), "body")
        var headers: [HTTPTransaction.Header] = []
        if let list = message.member("header")?.member("headers"), list.kind == .array {
            for header in list.elements {
                guard let name = header.member("name")?.string else { continue }
                headers.append(HTTPTransaction.Header(name: name, value: header.member("value")?.string ?? ""))
            }
        }
        if isResponse {
            record.responseHeaderBytes = headerBytes
            record.responseBodyBytes = bodyBytes
            record.responseHeaders = headers
            var mime = message.member("mimeType")?.string ?? ""
            if let charset = message.member("charset")?.string, !charset.isEmpty, !mime.isEmpty {
                mime += "; charset=" + charset
            }
            record.responseMimeType = mime
        } else {
            record.requestHeaderBytes = headerBytes
            record.requestBodyBytes = bodyBytes
            record.requestHeaders = headers
        }
    }
}
