import APMInspectCore

/// Reads JetsamEvent reports: whole `.ips` files, headerless bodies, and excerpts pasted from posts and docs.
///
/// The parser sniffs the content and never trusts the file name. A `bug_type` other than a jetsam one (211
/// CoreAnalytics, 409 stackshots) is refused even when the body looks alike. Non-strict JSON is repaired and the
/// result is marked partial, with a diagnostic for each repair.
public struct JetsamParser: Sendable {
    /// The limits and catalog reading uses.
    public var options: JetsamParseOptions

    /// A parser with the given options.
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
    package static func isJetsamEvent(_ container: IPSContainer) -> Bool {
        if let bugType = container.bugType { return bugType.family == .jetsam }
        guard container.bodyKind == .json, let document = try? container.parseJSONBody() else { return false }
        return findContent(document.root).found
    }

    /// Parses a file already split into header and body.
    ///
    /// - Throws: ``JetsamParseError`` when the file is another kind of report or holds nothing readable.
    package func parse(_ container: IPSContainer) throws(JetsamParseError) -> JetsamParseResult {
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
            diagnostics.append(
                Diagnostic(.warning, .jetsamHeaderWithoutBody, "the report has a header but no body", at: nil)
            )
            event.isPartial = true
            finalize(&event, diagnostics: &diagnostics)
            return JetsamParseResult(event: event, diagnostics: diagnostics)
        }
        let (document, content) = try locateContent(in: container)
        diagnostics += content.repairs
        diagnostics += document.diagnostics
        diagnostics += content.fragmentNotes
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
                    .jetsamProcessListTruncated,
                    "read the first \(options.maxProcesses) process entries; skipped \(reader.skippedProcesses) more",
                    at: SourceLocation(keyPath: "processes")
                )
            )
        }
        if !unknown.isEmpty { event.unknownKeys = .object(unknown) }
        if document.isFragmentList || !content.hasBody {
            var parts: [String] = []
            let bodies = content.bodies.count - content.looseObjects
            if bodies > 0 { parts.append("\(bodies) body fragment(s)") }
            if !content.processes.isEmpty { parts.append("\(content.processes.count) loose process entr(ies)") }
            if content.looseObjects > 0 { parts.append("\(content.looseObjects) other object(s)") }
            let what = parts.isEmpty ? "nothing usable" : parts.joined(separator: " and ")
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .jetsamExcerpt,
                    "the body is an excerpt, not a whole report: read \(what)",
                    at: nil
                )
            )
        }
        if content.bodies.isEmpty && content.processes.isEmpty {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .jetsamNoContent,
                    "no body fields or process entries could be read",
                    at: document.location(ofByte: document.root.byteOffset)
                )
            )
        }
        event.isPartial =
            document.isFragmentList || document.isTruncated || !content.hasBody || !content.repairs.isEmpty
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
        if document.diagnostics.contains(where: { $0.code == .jsonUnterminatedString }),
            let (joined, offsets) = WrappedStringJoiner.join(container.body)
        {
            var rejoined = container
            rejoined.body = joined
            if let again = try? rejoined.parseJSONBody(options: json ?? options.json) {
                document = again
                repairs = offsets.map { offset in
                    Diagnostic(
                        .warning,
                        .jetsamWrappedStringJoined,
                        "a string was wrapped over two lines; joined them",
                        at: Self.location(ofBodyByte: offset, in: rejoined)
                    )
                }
            }
        }
        var content = Self.findContent(document.root)
        content.repairs = repairs
        if !content.found, container.header != nil { Self.vouch(for: document, into: &content) }
        guard content.found || container.header != nil else {
            throw JetsamParseError(
                .noJetsamContent,
                "no JetsamEvent body or process entries found",
                at: document.location(ofByte: document.root.byteOffset)
            )
        }
        return (document, content)
    }

    /// Reads what a header vouches for as the body when it has none of a body's keys, so its unknown keys are kept.
    ///
    /// That is the root object, or, in a list of fragments (a body with a stray `}` or text after it), each object
    /// of the list (an `.ips` header's too), the first the body and the rest its pieces.
    private static func vouch(for document: JSONDocument, into content: inout Content) {
        let root = document.root
        if root.kind == .object {
            if root.count > 0 { content.bodies.append(root) }
            return
        }
        guard document.isFragmentList else { return }
        var notes = JSONFragmentNotes(document: document)
        for element in root.elements where element.kind == .object && element.count > 0 {
            if !content.bodies.isEmpty || JSONFragmentNotes.looksLikeIPSHeader(element) {
                notes.add(
                    .warning,
                    JSONFragmentNotes.pieceCode(element),
                    JSONFragmentNotes.readAsPiece(element),
                    at: element
                )
            }
            content.bodies.append(element)
        }
        content.fragmentNotes = notes.diagnostics
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
        /// What was made of the objects of a list of fragments that are neither a body nor a process entry.
        var fragmentNotes: [Diagnostic] = []
        /// Objects in ``bodies`` with none of a body's keys, read for their unknown keys beside process entries
        /// alone: not a body for what the report is (an excerpt) and how much of it was read.
        var looseObjects = 0
        var found: Bool { !bodies.isEmpty || !processes.isEmpty }
        /// True when a body, or a piece of one, was found.
        var hasBody: Bool { bodies.count > looseObjects }
    }

    /// Finds body objects and loose process entries at the top of a document or in a list of pasted fragments.
    static func findContent(_ root: JSONElement) -> Content {
        var content = Content()
        // Pieces of a body cut apart by an unbalanced `},` (a `product` and a top-level `pageSize` before it), kept
        // in document order with the bodies when the rest of the document is a JetsamEvent. Any other object of the
        // top-level list (only keys the model does not know, say, or an `.ips` header's) is read the same way, for
        // its unknown keys: beside a body a stray `}` cut it off; beside process entries alone it is not a body.
        var pieces: [(position: Int, element: JSONElement, isLoose: Bool)] = []
        func visit(_ element: JSONElement, depth: Int) {
            switch element.kind {
            case .object:
                if JetsamBodyReader.looksLikeBody(element) {
                    content.bodies.append(element)
                } else if JetsamBodyReader.looksLikeProcess(element) {
                    content.processes.append(element)
                } else if depth > 0, JetsamBodyReader.looksLikeBodyPiece(element) {
                    pieces.append((content.bodies.count, element, false))
                } else if depth == 1, element.count > 0 {
                    pieces.append((content.bodies.count, element, true))
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
        guard content.found else { return content }
        var notes = JSONFragmentNotes(document: root.document)
        let hasBody = !content.bodies.isEmpty || pieces.contains { !$0.isLoose }
        // One merge in document order (inserting each piece would move the bodies after it, once per piece).
        var bodies: [JSONElement] = []
        bodies.reserveCapacity(content.bodies.count + pieces.count)
        var next = pieces.startIndex
        for (k, body) in content.bodies.enumerated() {
            while next < pieces.endIndex, pieces[next].position <= k {
                bodies.append(pieces[next].element)
                next += 1
            }
            bodies.append(body)
        }
        bodies += pieces[next...].map(\.element)
        content.bodies = bodies
        for piece in pieces where piece.isLoose {
            if hasBody {
                notes.add(
                    .warning,
                    JSONFragmentNotes.pieceCode(piece.element),
                    JSONFragmentNotes.readAsPiece(piece.element),
                    at: piece.element
                )
            } else {
                content.looseObjects += 1
                notes.add(
                    .warning,
                    .jetsamLooseObject,
                    "an object that is neither a body nor a process entry; read its \(piece.element.count) member(s) "
                        + "as the report's unknown keys",
                    at: piece.element
                )
            }
        }
        content.fragmentNotes = notes.diagnostics
        return content
    }
}
