import APMInspectCore

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
public struct CharlesXMLReader: Sendable {
    public var options: HTTPCaptureOptions

    /// Serialises `XMLParser` runs (see ``read(_:)``).
    private static let lock = NSLock()

    public init(options: HTTPCaptureOptions = HTTPCaptureOptions()) {
        self.options = options
    }

    /// True when the XML text names a Charles session root within its first bytes.
    public static func looksLikeCharles(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self)
        return head.contains("<charles-session") || head.contains("charles-session")
    }

    /// Reads `.chlsx` bytes.
    ///
    /// - Throws: ``HTTPCaptureError`` when the XML is broken before any transaction or is not a Charles session.
    public func read(_ bytes: [UInt8]) throws(HTTPCaptureError) -> (HTTPCapture, [Diagnostic]) {
        let delegate = CharlesXMLDelegate(redact: options.redactSecrets)
        let parser = XMLParser(data: Data(bytes))
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        // libxml2 behind XMLParser keeps global state on Linux: one parse at a time across threads.
        Self.lock.lock()
        let parsed = parser.parse()
        Self.lock.unlock()
        let ok = parsed && delegate.errorMessage == nil && delegate.depth == 0
        var diagnostics: [Diagnostic] = []
        if !ok {
            let line = delegate.errorLine ?? parser.lineNumber
            let column = delegate.errorColumn ?? parser.columnNumber
            let message =
                delegate.errorMessage ?? parser.parserError.map { "\($0.localizedDescription)" }
                ?? "the document ends inside \(delegate.depth) open element(s)"
            let location = SourceLocation(line: line, column: column)
            if !delegate.sawRoot || delegate.transactions.isEmpty {
                throw HTTPCaptureError(.syntax, "broken Charles XML session: \(message)", at: location)
            }
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "XML ends early or is broken (\(message)); read the transactions before it",
                    at: location
                )
            )
        }
        guard delegate.sawRoot else {
            throw HTTPCaptureError(.wrongKind, "XML without a <charles-session> root element")
        }
        var capture = HTTPCapture(source: .charlesXML, creator: "Charles Proxy")
        capture.transactions = HTTPCaptureSorting.sorted(delegate.transactions)
        capture.summary = HTTPSummary(transactions: capture.transactions)
        return (capture, diagnostics + delegate.log.finished())
    }
}

/// The SAX handler that builds ``CharlesRecord`` values from `<transaction>` elements.
final class CharlesXMLDelegate: NSObject, XMLParserDelegate {
    let redact: Bool
    var transactions: [HTTPTransaction] = []
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

    static let knownAttributes: Set<String> = [
        "status", "method", "protocolVersion", "protocol", "host", "port", "actualPort", "path", "query",
        "remoteAddress", "startTime", "startTimeMillis", "requestBeginTime", "requestBeginTimeMillis", "requestTime",
        "requestTimeMillis", "responseTime", "responseTimeMillis", "endTime", "endTimeMillis", "duration",
        "dnsDuration", "connectDuration", "sslDuration", "requestDuration", "responseDuration", "latency",
        "totalSize", "tunnel", "keptAlive",
    ]

    init(redact: Bool) {
        self.redact = redact
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
            errorMessage = "XML syntax error (\((parseError as NSError).code))"
            errorLine = parser.lineNumber
            errorColumn = parser.columnNumber
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if text.utf8.count < 1 << 16 { text += string }
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
            if inResponse, record?.responseBodyBytes ?? 0 < 0 {
                record?.responseBodyBytes = Int64(text.utf8.count)
            }
        case "transaction":
            if let record { transactions.append(record.transaction(redact: redact)) }
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
        r.dns = duration("dnsDuration")
        r.connect = duration("connectDuration")
        r.ssl = duration("sslDuration")
        r.requestDuration = duration("requestDuration")
        r.latency = duration("latency")
        r.responseDuration = duration("responseDuration")
        r.total = duration("duration")
        r.totalSize = attributes["totalSize"].flatMap { Int64($0) } ?? -1
        for (key, value) in attributes where !knownAttributes.contains(key) {
            r.extensions[key] = .string(value)
        }
        return r
    }
}
