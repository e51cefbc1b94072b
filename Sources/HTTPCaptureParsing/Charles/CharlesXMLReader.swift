import APMInspectCore
import ByteAccess

#if canImport(FoundationXML)
    import FoundationXML
    import Foundation
#else
    import Foundation
#endif

/// Reads Charles Proxy `.chlsx` sessions: one XML document of `<transaction>` elements.
///
/// Parsed with `XMLParser` (libxml2 on Linux, through FoundationXML) with external entities off: the DOCTYPE
/// points at a URL and nothing is ever fetched.
package struct CharlesXMLReader: Sendable {
    package var options: HTTPCaptureOptions

    /// Serialises `XMLParser` runs (see ``read(_:)``).
    private static let lock = NSLock()

    package init(options: HTTPCaptureOptions = HTTPCaptureOptions()) {
        self.options = options
    }

    /// The offset of the first byte that is not part of a well-formed UTF-8 sequence, nil when all are.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        bytes.withBorrowedBytes { buffer -> Int? in
            var i = 0
            let n = buffer.count
            while i < n {
                let lead = buffer[unchecked: i]
                if lead < 0x80 {
                    i += 1
                    continue
                }
                let length = UTF8Sequence.length(at: i, in: bytes)
                guard length > 0 else { return i }
                i += length
            }
            return nil
        }
    }

    /// `bytes` with the `<!DOCTYPE …>` declaration replaced by spaces (lines and columns unchanged).
    ///
    /// Charles names a DTD by URL; libxml2 would try to load it (a network access) and FoundationXML has been seen
    /// to trap on attributes defaulted from a DTD, so the declaration never reaches the parser.
    static func blankingDoctype(_ bytes: [UInt8]) -> [UInt8] {
        let marker = Array("<!DOCTYPE".utf8)
        let limit = Swift.min(bytes.count, 4096)
        guard limit >= marker.count else { return bytes }
        var start: Int?
        for i in 0...(limit - marker.count) where bytes[i] == 0x3C && Array(bytes[i..<(i + marker.count)]) == marker {
            start = i
            break
        }
        guard let start else { return bytes }
        var end = start
        var depth = 0
        while end < bytes.count {
            let byte = bytes[end]
            if byte == 0x5B { depth += 1 }
            if byte == 0x5D { depth -= 1 }
            if byte == 0x3E && depth <= 0 { break }
            end += 1
        }
        guard end < bytes.count else { return bytes }
        var out = bytes
        for i in start...end where out[i] != 0x0A && out[i] != 0x0D { out[i] = 0x20 }
        return out
    }

    /// True when the XML text names a Charles session root within its first bytes.
    package static func looksLikeCharles(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self)
        return head.contains("<charles-session") || head.contains("charles-session")
    }

    /// Reads `.chlsx` bytes.
    ///
    /// - Throws: ``HTTPCaptureError`` when the XML is broken before any transaction or is not a Charles session.
    package func read(_ bytes: [UInt8]) throws(HTTPCaptureError) -> (HTTPCapture, [Diagnostic]) {
        var transactions: [HTTPTransaction] = []
        var (capture, diagnostics) = try visit(bytes) { transactions.append($0) }
        capture.setTransactions(transactions)
        return (capture, diagnostics)
    }

    /// Reads `.chlsx` bytes, handing each transaction to `body` as its element ends instead of keeping it (the
    /// parser is SAX: no tree is built).
    ///
    /// The capture returned has no transactions; `index` of each transaction handed over is its position in the
    /// file, before any sorting.
    ///
    /// - Throws: ``HTTPCaptureError`` as ``read(_:)``.
    package func visit(_ bytes: [UInt8], _ body: (HTTPTransaction) -> Void) throws(HTTPCaptureError) -> (
        HTTPCapture, [Diagnostic]
    ) {
        let outcome = withoutActuallyEscaping(body) { escapable in
            Result { () throws(HTTPCaptureError) -> (HTTPCapture, [Diagnostic]) in
                let delegate = CharlesXMLDelegate(redact: options.redactSecrets, sink: escapable)
                defer { delegate.sink = nil }
                return try parse(bytes, delegate: delegate)
            }
        }
        return try outcome.get()
    }

    private func parse(_ bytes: [UInt8], delegate: CharlesXMLDelegate) throws(HTTPCaptureError) -> (
        HTTPCapture, [Diagnostic]
    ) {
        // FoundationXML traps on names that are not valid UTF-8 instead of reporting them: stop the document at
        // the first invalid byte, and say so.
        var input = bytes
        // Said before what the parser finds: where the input was cut or changed before parsing.
        var early: [Diagnostic] = []
        if let bad = Self.firstInvalidUTF8(bytes) {
            input = Array(bytes.prefix(bad))
            early.append(
                Diagnostic(
                    .warning,
                    .charlesNotUTF8,
                    "byte \(bad) is not UTF-8; the session was read up to it",
                    at: SourceLocation(byteOffset: bad)
                )
            )
        }
        // Past a limit libxml2 would be slow on (see ``XMLMarkupLimits``): read the transactions before the
        // offending element, and say why the rest was not read.
        var limitMessage: String?
        var limitLocation: SourceLocation?
        let (declared, encoding) = XMLDeclaration.forcingUTF8(input)
        if let encoding {
            input = declared
            early.append(
                Diagnostic(
                    .note,
                    .charlesDeclaredEncoding,
                    "the XML declaration names the encoding \"\(encoding)\"; the session is read as UTF-8",
                    at: SourceLocation(line: 1, column: 1)
                )
            )
        }
        let markup = XMLMarkupLimits().check(&input)
        if let first = markup.firstBlankedInstruction {
            let count = markup.blankedInstructions
            early.append(
                Diagnostic(
                    .note,
                    .charlesEmptyProcessingInstruction,
                    count == 1
                        ? "a processing instruction without data was left out (the XML parser cannot read one)"
                        : "\(count) processing instructions without data were left out (the XML parser cannot read them)",
                    at: TextPosition.location(in: input, byteOffset: first)
                )
            )
        }
        if let excess = markup.excess {
            limitMessage = excess.message
            limitLocation = TextPosition.location(in: input, byteOffset: excess.byteOffset)
            input = Array(input.prefix(excess.byteOffset))
        }
        // libxml2 behind XMLParser keeps global state on Linux: the parser is created, run and released under one
        // lock, so parses never overlap across threads.
        let (parsed, parserLine, parserColumn, parserMessage) = Self.lock.withLock {
            () -> (Bool, Int, Int, String?) in
            // Fed from a stream, libxml2 gets the document in pieces: handed the whole `Data` at once, it copied all of
            // it into its own input buffer (a 650 MB session peaked at 2.6 GB), and the `Data` was a copy too.
            let parser = XMLParser(stream: ByteArrayInputStream(Self.blankingDoctype(input)))
            parser.shouldResolveExternalEntities = false
            parser.delegate = delegate
            let parsed = parser.parse()
            let message = parser.parserError.map { "\($0.localizedDescription)" }
            parser.delegate = nil
            return (parsed, parser.lineNumber, parser.columnNumber, message)
        }
        let ok = parsed && delegate.errorMessage == nil && delegate.depth == 0
        var diagnostics = early
        if let limitMessage {
            if !delegate.sawRoot || delegate.count == 0 {
                throw HTTPCaptureError(.tooLarge, "Charles XML session refused: \(limitMessage)", at: limitLocation)
            }
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .charlesMarkupLimit,
                    "\(limitMessage); read the transactions before that element",
                    at: limitLocation
                )
            )
        } else if !ok {
            let line = delegate.errorLine ?? parserLine
            let column = delegate.errorColumn ?? parserColumn
            let message =
                delegate.errorMessage ?? parserMessage ?? "the document ends inside \(delegate.depth) open element(s)"
            let location = SourceLocation(line: line, column: column)
            if !delegate.sawRoot || delegate.count == 0 {
                throw HTTPCaptureError(.syntax, "broken Charles XML session: \(message)", at: location)
            }
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .charlesBrokenXML,
                    "XML ends early or is broken (\(message)); read the transactions before it",
                    at: location
                )
            )
        }
        guard delegate.sawRoot else {
            throw HTTPCaptureError(.wrongKind, "XML without a <charles-session> root element")
        }
        return (HTTPCapture(source: .charlesXML, creator: "Charles Proxy"), diagnostics + delegate.log.finished())
    }
}

/// The SAX handler that builds ``CharlesRecord`` values from `<transaction>` elements.
final class CharlesXMLDelegate: NSObject, XMLParserDelegate {
    let redact: Bool
    /// Where each transaction goes as its element ends.
    var sink: ((HTTPTransaction) -> Void)?
    /// Transactions handed to the sink.
    private(set) var count = 0
    var log = DiagnosticLog()
    var sawRoot = false
    /// Elements open at the current point (0 after a complete document).
    var depth = 0
    var errorMessage: String?
    var errorLine: Int?
    var errorColumn: Int?
    private var record: CharlesRecord?
    private var inResponse = false
    private var text = ""
    private var headerName = ""
    private var headerValue = ""
    private var headers: [HTTPTransaction.Header] = []
    /// The `<body>` being read: its encoding, and its size counted as it streams in (the text kept is capped).
    private var inBody = false
    private var bodyIsBase64 = false
    private var bodyBytes: Int64 = 0

    static let knownAttributes: Set<String> = [
        "status", "method", "protocolVersion", "protocol", "host", "port", "actualPort", "path", "query",
        "remoteAddress", "startTime", "startTimeMillis", "requestBeginTime", "requestBeginTimeMillis", "requestTime",
        "requestTimeMillis", "responseTime", "responseTimeMillis", "endTime", "endTimeMillis", "duration",
        "dnsDuration", "connectDuration", "sslDuration", "requestDuration", "responseDuration", "latency",
        "totalSize", "tunnel", "keptAlive",
    ]

    init(redact: Bool, sink: @escaping (HTTPTransaction) -> Void) {
        self.redact = redact
        self.sink = sink
    }

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?,
        attributes: [String: String] = [:]
    ) {
        text = ""
        depth += 1
        switch elementName {
        case "charles-session":
            sawRoot = true
        case "transaction":
            record = Self.record(from: attributes)
            inResponse = false
        case "request":
            inResponse = false
            headers = []
            record?.requestBodyBytes =
                attributes["body"].flatMap { Int64($0) }.flatMap { (0..<(1 << 50)).contains($0) ? $0 : nil } ?? -1
        case "body":
            inBody = true
            bodyIsBase64 = attributes["encoding"]?.lowercased() == "base64"
            bodyBytes = 0
        case "response":
            inResponse = true
            headers = []
            record?.hasResponse = true
            record?.responseStatus = attributes["status"].flatMap { Int($0) }
            if let mime = attributes["mime-type"] {
                var type = mime
                if let charset = attributes["charset"], !charset.isEmpty { type += "; charset=" + charset }
                record?.responseMimeType = type
            }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if errorMessage == nil {
            errorMessage = XMLErrorWords.describe((parseError as NSError).code)
            errorLine = parser.lineNumber
            errorColumn = parser.columnNumber
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inBody { countBody(string.utf8) }
        if text.utf8.count < 1 << 16 { text += string }
    }

    /// Bodies are mostly CDATA (`<body encoding="plain"><![CDATA[…]]></body>`).
    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        if inBody { countBody(block) }
    }

    /// Counts body bytes: as written for plain text; for base64 the data characters (padding and line breaks are
    /// not data), turned into bytes at the end.
    private func countBody<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        guard bodyIsBase64 else {
            bodyBytes += Int64(bytes.count)
            return
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "="), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): break
            default: bodyBytes += 1
            }
        }
    }

    func parser(
        _ parser: XMLParser,
        didEndElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        depth -= 1
        switch elementName {
        case "name": headerName = text
        case "value": headerValue = text
        case "header":
            headers.append(HTTPTransaction.Header(name: headerName, value: headerValue))
            headerName = ""
            headerValue = ""
        case "headers":
            let bytes = Int64(headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 } + 2)
            if inResponse {
                record?.responseHeaders = headers
                record?.responseHeaderBytes = bytes
            } else {
                record?.requestHeaders = headers
                record?.requestHeaderBytes = bytes
            }
        case "body":
            // `.chlsx` has no size attributes: the body element is the size, as `sizes.body` is in `.chlsj`.
            // Base64: every 4 data characters are 3 bytes, and a trailing 2 or 3 are 1 or 2 (padding or not).
            let size = bodyIsBase64 ? bodyBytes / 4 * 3 + Swift.max(0, bodyBytes % 4 - 1) : bodyBytes
            if inResponse, record?.responseBodyBytes ?? 0 < 0 {
                record?.responseBodyBytes = Swift.max(0, size)
            } else if !inResponse, record?.requestBodyBytes ?? 0 < 0 {
                record?.requestBodyBytes = Swift.max(0, size)
            }
            inBody = false
        case "transaction":
            if let record {
                var transaction = record.transaction(redact: redact)
                transaction.index = count
                count += 1
                sink?(transaction)
            }
            record = nil
        default:
            break
        }
        text = ""
    }

    static func record(from attributes: [String: String]) -> CharlesRecord {
        var r = CharlesRecord()
        r.status = attributes["status"] ?? ""
        r.method = attributes["method"] ?? ""
        r.protocolVersion = attributes["protocolVersion"] ?? ""
        r.scheme = attributes["protocol"] ?? ""
        r.host = attributes["host"] ?? ""
        r.port = attributes["actualPort"].flatMap { Int($0) } ?? attributes["port"].flatMap { Int($0) }
        r.path = attributes["path"] ?? ""
        r.query = attributes["query"] ?? ""
        r.remoteAddress = attributes["remoteAddress"]
        r.tunnel = attributes["tunnel"] == "true"
        r.keptAlive = attributes["keptAlive"].map { $0 == "true" }
        func time(_ key: String) -> Double? {
            if let millis = attributes[key + "Millis"].flatMap({ Double($0) }), abs(millis) < 1e15 {
                return millis / 1000
            }
            guard let text = attributes[key], let stamp = CaptureTimestamp(text) else { return nil }
            if stamp.zoneMissing { r.zoneMissing = true }
            return stamp.secondsSince1970
        }
        r.startText = attributes["startTime"] ?? ""
        r.start = time("startTime")
        r.requestBegin = time("requestBeginTime")
        r.requestComplete = time("requestTime")
        r.responseBegin = time("responseTime")
        r.end = time("endTime")
        if r.startText.isEmpty, let start = r.start { r.startText = CaptureTimestamp.iso8601(start) }
        func duration(_ key: String) -> Double? {
            guard let value = attributes[key].flatMap({ Double($0) }), value >= 0, value <= HAREntryBuilder.maxPhase
            else {
                return nil
            }
            return value
        }
        for phase in CharlesRecord.durationFields { r[keyPath: phase.field] = duration(phase.xml) }
        r.totalSize = attributes["totalSize"].flatMap { Int64($0) } ?? -1
        for (key, value) in attributes where !knownAttributes.contains(key) {
            r.extensions[key] = .string(value)
        }
        return r
    }
}
