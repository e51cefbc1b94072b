import APMInspectCore

/// Reads JetsamEvent reports: whole `.ips` files, headerless bodies, and excerpts pasted from posts and docs.
///
/// The parser sniffs the content and never trusts the file name. A `bug_type` other than a jetsam one (211
/// CoreAnalytics, 409 stackshots) is refused even when the body looks alike. Non-strict JSON is repaired and the
/// result is marked partial, with a diagnostic for each repair.
public struct JetsamParser: Sendable {
    public var options: JetsamParseOptions

    public init(options: JetsamParseOptions = JetsamParseOptions()) {
        self.options = options
    }

    /// Parses the bytes of a file.
    ///
    /// - Throws: ``JetsamParseError`` when the file is another kind of report or holds nothing readable.
    public func parse(_ bytes: [UInt8]) throws(JetsamParseError) -> JetsamParseResult {
        try parse(IPSContainer(bytes: bytes))
    }

    /// Whether a container is a JetsamEvent by its header, or (with no header) by the shape of its body.
    public static func isJetsamEvent(_ container: IPSContainer) -> Bool {
        if let bugType = container.bugType { return bugType.family == .jetsam }
        guard container.bodyKind == .json, let document = try? container.parseJSONBody() else { return false }
        return findContent(document.root).found
    }

    /// Parses a file already split into header and body.
    ///
    /// - Throws: ``JetsamParseError`` when the file is another kind of report or holds nothing readable.
    public func parse(_ container: IPSContainer) throws(JetsamParseError) -> JetsamParseResult {
        var diagnostics = container.diagnostics
        try Self.checkKind(of: container)
        var event = JetsamEvent()
        event.header = container.header
        event.bugType = container.header?.bugType
        event.incidentID = container.header?.incidentID
        if let osVersion = container.header?.osVersion {
            JetsamBodyReader(options: options).applyBuild(osVersion, to: &event)
        }
        if container.bodyKind == .empty {
            guard container.header != nil else {
                throw JetsamParseError(.noJetsamContent, "the file is empty")
            }
            diagnostics.append(Diagnostic(.warning, "the report has a header but no body", at: nil))
            event.isPartial = true
            finalize(&event, diagnostics: &diagnostics)
            return JetsamParseResult(event: event, diagnostics: diagnostics)
        }
        var (document, content) = try locateContent(in: container)
        diagnostics += content.repairs
        diagnostics += document.diagnostics
        // A header vouches for the file: a root object with none of a body's keys is still its body, whose
        // (unknown) keys are kept rather than dropped.
        if !content.found, container.header != nil, document.root.kind == .object, document.root.count > 0 {
            content.bodies.append(document.root)
        }
        var reader = JetsamBodyReader(options: options)
        var unknown: [JSONValue.Member] = []
        for body in content.bodies {
            reader.readBody(body, into: &event, unknown: &unknown)
        }
        for process in content.processes {
            reader.appendProcess(process, to: &event.processes)
        }
        diagnostics += reader.diagnostics
        if reader.skippedProcesses > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "read the first \(options.maxProcesses) process entries; skipped \(reader.skippedProcesses) more",
                    at: SourceLocation(keyPath: "processes")
                )
            )
        }
        if !unknown.isEmpty { event.unknownKeys = .object(unknown) }
        if document.isFragmentList || content.bodies.isEmpty {
            var parts: [String] = []
            if !content.bodies.isEmpty { parts.append("\(content.bodies.count) body fragment(s)") }
            if !content.processes.isEmpty { parts.append("\(content.processes.count) loose process entr(ies)") }
            let what = parts.isEmpty ? "nothing usable" : parts.joined(separator: " and ")
            diagnostics.append(
                Diagnostic(.warning, "the body is an excerpt, not a whole report: read \(what)", at: nil)
            )
        }
        if content.bodies.isEmpty && content.processes.isEmpty {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "no body fields or process entries could be read",
                    at: document.location(ofByte: document.root.byteOffset)
                )
            )
        }
        event.isPartial =
            document.isFragmentList || document.isTruncated || content.bodies.isEmpty || !content.repairs.isEmpty
            || document.diagnostics.contains { $0.severity >= .warning }
        finalize(&event, diagnostics: &diagnostics)
        return JetsamParseResult(event: event, diagnostics: diagnostics)
    }

    // MARK: - Locating content

    /// Refuses other report types and text bodies: the checks both the full and the fast path start with.
    static func checkKind(of container: IPSContainer) throws(JetsamParseError) {
        if let bugType = container.bugType, bugType.family != .jetsam {
            throw JetsamParseError(
                .notJetsam,
                "bug_type \(bugType.code) (\(bugType.name)) is not a JetsamEvent (298)",
                at: SourceLocation(byteOffset: 0, line: 1, column: 1, keyPath: "bug_type")
            )
        }
        guard container.bodyKind != .text else {
            throw JetsamParseError(
                .unreadableBody,
                "the body is text, expected the JSON of a JetsamEvent",
                at: SourceLocation(byteOffset: container.bodyOrigin.byteOffset, line: container.bodyOrigin.line)
            )
        }
    }

    /// Parses a non-empty JSON body and finds its JetsamEvent content, shared by the full and the fast path.
    ///
    /// - Throws: ``JetsamParseError`` when the body is not readable, or holds no jetsam content and no header
    ///   vouches for it.
    func locateContent(
        in container: IPSContainer,
        json: JSONParseOptions? = nil
    ) throws(JetsamParseError) -> (JSONDocument, Content) {
        var document: JSONDocument
        do {
            document = try container.parseJSONBody(options: json ?? options.json)
        } catch {
            throw JetsamParseError(
                .unreadableBody,
                "the body is not readable JSON: \(error.message)",
                at: error.location
            )
        }
        // A raw line break inside a string is the one repair that may be a value wrapped over two lines: only then
        // is the body scanned for wrapped strings (and copied, when one is found) and read again.
        var repairs: [Diagnostic] = []
        if document.diagnostics.contains(where: { $0.message.hasPrefix("unterminated string") }),
            let (joined, offsets) = WrappedStringJoiner.join(container.body)
        {
            var rejoined = container
            rejoined.body = joined
            if let again = try? rejoined.parseJSONBody(options: json ?? options.json) {
                document = again
                repairs = offsets.map { offset in
                    Diagnostic(
                        .warning,
                        "a string was wrapped over two lines; joined them",
                        at: Self.location(ofBodyByte: offset, in: rejoined)
                    )
                }
            }
        }
        var content = Self.findContent(document.root)
        content.repairs = repairs
        guard content.found || container.header != nil else {
            throw JetsamParseError(
                .noJetsamContent,
                "no JetsamEvent body or process entries found",
                at: document.location(ofByte: document.root.byteOffset)
            )
        }
        return (document, content)
    }

    /// Where byte `offset` of the body is in the file: the body's origin, plus the lines before it in the body.
    static func location(ofBodyByte offset: Int, in container: IPSContainer) -> SourceLocation {
        let before = container.body.prefix(offset)
        let lines = before.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return SourceLocation(
            byteOffset: container.bodyOrigin.byteOffset + offset,
            line: container.bodyOrigin.line + lines,
            column: column
        )
    }

    struct Content {
        var bodies: [JSONElement] = []
        var processes: [JSONElement] = []
        /// Repairs made to the bytes before they were parsed (wrapped strings joined).
        var repairs: [Diagnostic] = []
        var found: Bool { !bodies.isEmpty || !processes.isEmpty }
    }

    /// Finds body objects and loose process entries at the top of a document or in a list of pasted fragments.
    static func findContent(_ root: JSONElement) -> Content {
        var content = Content()
        // Pieces of a body cut apart by an unbalanced `},` (a `product` and a top-level `pageSize` before it), kept
        // in document order with the bodies when the rest of the document is a JetsamEvent.
        var pieces: [(position: Int, element: JSONElement)] = []
        func visit(_ element: JSONElement, depth: Int) {
            switch element.kind {
            case .object:
                if JetsamBodyReader.looksLikeBody(element) {
                    content.bodies.append(element)
                } else if JetsamBodyReader.looksLikeProcess(element) {
                    content.processes.append(element)
                } else if depth > 0, JetsamBodyReader.looksLikeBodyPiece(element) {
                    pieces.append((content.bodies.count, element))
                }
            // Objects nested in other objects are not searched: a report wrapped in another document (our own
            // JSON output, say) is that document, not a JetsamEvent.
            case .array:
                guard depth < 3 else { return }
                for item in element.elements { visit(item, depth: depth + 1) }
            default:
                return
            }
        }
        visit(root, depth: 0)
        if content.found {
            for piece in pieces.reversed() { content.bodies.insert(piece.element, at: piece.position) }
        }
        return content
    }
}
