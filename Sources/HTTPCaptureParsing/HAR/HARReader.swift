import APMInspectCore

/// Reads HAR 1.1 and 1.2 files, lenient with every exporter quirk of reference §2.
///
/// Timing conventions are decided per file from the data: whether `ssl` sits inside `connect` (HAR 1.2, Chrome,
/// Charles) or on top of it (mitmproxy, some Firefox entries), and whether `time` is wall-clock (Safari).
/// Vendor fields are kept verbatim in each transaction's `extensions`.
package struct HARReader: Sendable {
    package var options: HTTPCaptureOptions

    package init(options: HTTPCaptureOptions = HTTPCaptureOptions()) {
        self.options = options
    }

    /// The nesting level of a HAR entry (the top-level object is 1, `log` 2, `entries` 3).
    ///
    /// Captures are parsed with containers from this level kept opaque (`JSONParseOptions.opaqueDepth`): each
    /// entry is parsed when it is read and its tape dropped after, so a million entries never hold a node per value
    /// at once (the whole tape took about 3.5 times the file).
    package static let entryDepth = 4

    /// True when `root` is shaped like a HAR document (`{"log": {...}}` or `{"log": [...]}`).
    package static func looksLikeHAR(_ root: JSONElement) -> Bool {
        guard root.kind == .object, let log = root.member("log") else { return false }
        return log.kind == .object || log.kind == .array
    }

    /// Reads a parsed HAR document.
    ///
    /// - Throws: ``HTTPCaptureError`` when the document has no `log` object.
    package func read(_ document: JSONDocument) throws(HTTPCaptureError) -> (HTTPCapture, [Diagnostic]) {
        let entries = document.root.member("log")?.member("entries")?.count ?? 0
        return try HTTPCapture.keepingTransactions(capacity: entries) { body throws(HTTPCaptureError) in
            try visit(document, body)
        }
    }

    /// Reads a parsed HAR document, handing each transaction to `body` in file order instead of keeping it.
    ///
    /// The capture returned has the file's header fields and no transactions; `index` of each transaction handed
    /// over is its position among the readable entries, before any sorting.
    ///
    /// - Throws: ``HTTPCaptureError`` when the document has no `log` object.
    package func visit(
        _ document: JSONDocument,
        _ body: (HTTPTransaction) -> Void
    ) throws(HTTPCaptureError) -> (HTTPCapture, [Diagnostic]) {
        let (capture, diagnostics, _) = try visitEntries(document, keepsVerbatim: true) { transaction, _ in
            body(transaction)
        }
        return (capture, diagnostics)
    }

    /// ``visit(_:_:)`` that also hands over each transaction's entry, for rebuilding it later (``HARReplay``), and
    /// returns the file's conventions; with `keepsVerbatim` false the transactions lack vendor fields and headers, and
    /// with `keepsElements` their vendor fields are elements of the entry's text (``HAREntryBuilder/keepsElements``),
    /// for a caller that drops each transaction before the next.
    ///
    /// The timing conventions are decided from every entry (``sslIsAdditive(entries:creator:)``). Without `restart`
    /// that takes a pass of its own before the first transaction is handed over. With it, the conventions are
    /// guessed from the creator, the evidence is gathered while the transactions are built, and in the rare file
    /// where the guess was wrong `restart` is called and every entry is visited again with the conventions decided:
    /// one pass instead of two for nearly every file (the vote pass was 7 % of `http --format json` on a HAR).
    ///
    /// With `windowed`, `document` is its skeleton and the entries are read from its file one at a time.
    func visitEntries(
        _ document: JSONDocument,
        windowed: HARWindowedFile? = nil,
        keepsVerbatim: Bool,
        keepsElements: Bool = false,
        restart: (() -> Void)? = nil,
        _ body: (HTTPTransaction, HARReplay.Entry) -> Void
    ) throws(HTTPCaptureError) -> (HTTPCapture, [Diagnostic], HARReplay.Conventions) {
        var log = DiagnosticLog()
        let root = document.root
        guard root.kind == .object else {
            throw HTTPCaptureError(
                .wrongKind,
                "not a HAR file: the top level is not a JSON object",
                at: loc(document, root)
            )
        }
        guard let harLog = root.member("log") else {
            throw HTTPCaptureError(.wrongKind, "not a HAR file: there is no \"log\" object", at: loc(document, root))
        }
        guard harLog.kind == .object else {
            throw HTTPCaptureError(
                .syntax,
                "broken HAR file: \"log\" is \(describe(harLog.kind)), expected an object with \"entries\"",
                at: loc(document, harLog, "log")
            )
        }
        var capture = HTTPCapture(source: .har)
        capture.version = harLog.member("version")?.string
        if capture.version == nil {
            log.add(.harMissingVersion, .warning, "log.version is missing", at: loc(document, harLog, "log"))
        }
        capture.creator = agent(harLog.member("creator"))
        if capture.creator == nil {
            log.add(.harMissingCreator, .warning, "log.creator is missing", at: loc(document, harLog, "log"))
        }
        capture.browser = agent(harLog.member("browser"))
        if let pages = harLog.member("pages"), pages.kind == .array {
            capture.pages = pages.elements.map(Self.materializedInFull)
        }
        harLog.forEachMember { key, value in
            switch key {
            case "version", "creator", "browser", "pages", "entries": break
            default: capture.extensions[key] = Self.materializedInFull(value)
            }
        }
        guard let entries = harLog.member("entries"), entries.kind == .array else {
            log.add(
                .harMissingEntries,
                .warning,
                "log.entries is missing: no requests",
                at: loc(document, harLog, "log")
            )
            capture.summary = HTTPSummary(transactions: [])
            return (capture, document.diagnostics + log.finished(), HARReplay.Conventions())
        }
        let creatorName = harLog.member("creator")?.member("name")?.string ?? ""
        let wallClock = creatorName.contains("WebKit") || creatorName.contains("Safari")
        var decided: HARReplay.Conventions?
        let places = windowed.map { HARPlaces.file($0.lines) } ?? .document(document)
        if restart == nil {
            let sslAdditive: Bool
            var anyDNS = false
            if let windowed {
                var votes = SSLVotes()
                windowed.forEachEntry { _, entry, _ in
                    guard let entry else { return }
                    votes.observe(entry)
                    if entry.member("timings")?.member("dns") != nil { anyDNS = true }
                }
                sslAdditive = votes.sslAdditive
            } else {
                sslAdditive = Self.sslIsAdditive(entries: entries, creator: creatorName)
                anyDNS =
                    sslAdditive
                    && entries.elements.contains {
                        Self.expand($0)?.member("timings")?.member("dns") != nil
                    }
            }
            // mitmproxy's signature: TLS on top of connect and no DNS timing anywhere, because it resolves inside
            // connect.
            let connectIncludesDNS = sslAdditive && !anyDNS
            decided = HARReplay.Conventions(
                sslAdditive: sslAdditive,
                connectIncludesDNS: connectIncludesDNS,
                wallClock: wallClock
            )
        }
        let logBeforeEntries = log
        while true {
            let guessed = creatorName.lowercased().contains("mitmproxy")
            let conventions =
                decided
                ?? HARReplay.Conventions(sslAdditive: guessed, connectIncludesDNS: guessed, wallClock: wallClock)
            var votes = SSLVotes()
            var position = 0
            var kept = 0
            Self.forEachEntry(entries, windowed) { expanded, opaqueLocation, replayEntry in
                defer { position += 1 }
                guard let entry = expanded else {
                    log.add(
                        .harEntryUnreadable,
                        .warning,
                        "entry \(position) is not readable JSON; skipped",
                        at: opaqueLocation(places)
                    )
                    return
                }
                if decided == nil { votes.observe(entry) }
                if entry.document.diagnostics.count > 0, entry.document !== document {
                    // Repairs inside the entry, found when it was parsed on its own.
                    for diagnostic in entry.document.diagnostics {
                        log.add(diagnostic)
                    }
                }
                guard entry.kind == .object else {
                    log.add(
                        .harEntryNotObject,
                        .warning,
                        "entry \(position) is not an object; skipped",
                        at: places.location(entry)
                    )
                    return
                }
                guard entry.member("request") != nil || entry.member("response") != nil else {
                    let reason = entry.isTruncated ? "cut off by the end of the file" : "without request or response"
                    log.add(
                        .harEntryEmpty,
                        .warning,
                        "entry \(position) is \(reason); skipped",
                        at: places.location(entry, "log.entries[\(position)]")
                    )
                    return
                }
                var builder = HAREntryBuilder(
                    places: places,
                    entry: entry,
                    path: "log.entries[\(position)]",
                    sslAdditive: conventions.sslAdditive,
                    connectIncludesDNS: conventions.connectIncludesDNS,
                    wallClock: wallClock,
                    options: options,
                    keepsVerbatim: keepsVerbatim
                )
                builder.keepsElements = keepsElements
                var transaction = builder.build(log: &log)
                transaction.index = kept
                kept += 1
                body(transaction, replayEntry(position))
            }
            if decided == nil {
                let found = votes.conventions(wallClock: wallClock)
                if found != conventions, let restart {
                    restart()
                    log = logBeforeEntries
                    decided = found
                    continue
                }
            }
            return (capture, document.diagnostics + log.finished(), conventions)
        }
    }

    /// Hands each entry of `entries` (or of the windowed file) to `body` in file order: parsed in full (nil when its
    /// bytes are not JSON), the location of its first byte, and how a second pass finds it again.
    private static func forEachEntry(
        _ entries: JSONElement,
        _ windowed: HARWindowedFile?,
        _ body: (JSONElement?, (HARPlaces) -> SourceLocation, (Int) -> HARReplay.Entry) -> Void
    ) {
        if let windowed {
            windowed.forEachEntry { _, entry, span in
                body(
                    entry,
                    { places in
                        if case .file(let lines) = places { return lines.location(ofByte: span.lowerBound) }
                        return SourceLocation(byteOffset: span.lowerBound)
                    },
                    { HARReplay.Entry(element: nil, span: span, position: $0) }
                )
            }
            return
        }
        for opaqueEntry in entries.elements {
            body(
                expand(opaqueEntry),
                { $0.location(opaqueEntry) },
                { HARReplay.Entry(element: opaqueEntry, position: $0) }
            )
        }
    }

    /// Decides from the data whether this file's `ssl` comes on top of `connect` (``SSLVotes``), stopping at the
    /// first entry that proves it.
    static func sslIsAdditive(entries: JSONElement, creator: String) -> Bool {
        var votes = SSLVotes()
        for opaqueEntry in entries.elements {
            guard let entry = expand(opaqueEntry) else { continue }
            votes.observe(entry)
            if votes.sslAboveConnect { return true }
        }
        return votes.sslAdditive
    }

    /// An entry parsed in full when the document kept it opaque; nil when its bytes are not JSON.
    static func expand(_ element: JSONElement) -> JSONElement? {
        guard element.isOpaque else { return element }
        return try? element.expanded()
    }

    /// A self-contained copy of `element`, with the containers the opaque parse skipped read in full.
    static func materializedInFull(_ element: JSONElement) -> JSONValue {
        guard element.kind == .object || element.kind == .array, element.document.options.opaqueDepth != nil else {
            return element.materialized
        }
        var options = element.document.options
        options.opaqueDepth = nil
        let bytes = Array(element.document.bytes[element.sourceRange])
        guard let full = try? JSONDocument(bytes: bytes, options: options) else { return element.materialized }
        return full.root.materialized
    }

    private func agent(_ element: JSONElement?) -> String? {
        guard let element, element.kind == .object else { return nil }
        let name = element.member("name")?.string ?? ""
        let version = element.member("version")?.string ?? ""
        let text = [name, version].filter { !$0.isEmpty }.joined(separator: " ")
        return text.isEmpty ? nil : text
    }

    private func describe(_ kind: JSONElement.Kind) -> String {
        switch kind {
        case .array: "an array"
        case .object: "an object"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// A location for a diagnostic about `element`.
func loc(_ document: JSONDocument, _ element: JSONElement, _ keyPath: String? = nil) -> SourceLocation {
    // An entry parsed on its own has offsets from its own start: shifted back onto the file's.
    let shift = element.document.origin.byteOffset - document.origin.byteOffset
    return document.location(ofByte: shift + element.byteOffset, keyPath: keyPath)
}

/// A number from a JSON number or a numeric string; nil for null, absent or anything else.
func number(_ element: JSONElement?) -> Double? {
    guard let element else { return nil }
    switch element.kind {
    case .number: return element.double
    case .string: return element.string.flatMap { Double($0.trimmingSpaces) }
    default: return nil
    }
}

/// The figure `read` makes of the number in `element`: nil when the element is absent, null or -1 (unknown, in HAR
/// and in Charles sessions).
///
/// A value present that is not a finite number or that `read` refuses goes to `unfit`, so that the reader says so
/// and keeps the value (nothing the file holds is dropped unsaid).
func figure<T>(_ element: JSONElement?, _ read: (Double) -> T?, unfit: (JSONElement) -> Void) -> T? {
    guard let element, element.kind != .null else { return nil }
    let value = number(element)
    if value == -1 { return nil }
    if let value, value.isFinite, let figure = read(value) { return figure }
    unfit(element)
    return nil
}

/// The warning for a value ``figure(_:_:unfit:)`` refused: `key` is its path, `what` the kind of figure expected.
func unfitFigureMessage(_ key: String, _ element: JSONElement, _ what: String) -> String {
    "\(key) = \(element.rawText ?? "?") is not \(what); kept in extensions"
}

/// A byte count from a JSON number or numeric string: nil when absent, negative, fractional garbage or above 1 PiB.
func byteCount(_ element: JSONElement?) -> Int64? {
    guard let value = number(element), value.isFinite, value >= 0, value < 1_125_899_906_842_624 else { return nil }
    return Int64(value)
}
