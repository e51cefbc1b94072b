import ByteAccess

/// An `.ips` file split into its one-line JSON header and its body, with the body's kind sniffed from content.
///
/// Line 1 is the header; the file is split at the first newline only, because header strings may contain braces
/// and escaped quotes. Pasted files are repaired where the intent is clear: a header cut at the front
/// (`timestamp":"…"}`), a header wrapped over several lines, a body with no header line at all. Each repair is
/// a ``Diagnostic``.
public struct IPSContainer: Sendable {
    /// What follows the header.
    package enum BodyKind: String, Sendable, Equatable, Codable {
        /// A JSON value (or JSON-like text, for pasted excerpts).
        case json
        /// Text, such as a legacy crash report.
        case text
        /// Nothing but whitespace.
        case empty
    }

    /// The header, when line 1 (possibly repaired) is one.
    package var header: IPSHeader?
    /// The bytes after the header (the whole file when there is no header).
    package var body: [UInt8]
    /// Where ``body`` starts in the file.
    package var bodyOrigin: TextOrigin
    package var bodyKind: BodyKind
    /// Repairs and findings about the container.
    package var diagnostics: [Diagnostic]

    /// The bug type from the header, falling back to a `bug_type` member at the top of a JSON body.
    package var bugType: BugType? {
        if let code = header?.bugType { return BugType.lookup(code) }
        return nil
    }

    /// Splits `bytes` into header and body.
    ///
    /// This never fails: a file with no recognisable header has `header == nil` and the whole file as body.
    ///
    /// A line 1 longer than `maxHeaderLineBytes` is not read as a header (a real one is a few hundred bytes, and
    /// reading a 1 GB one cost several copies of it): the file is then headerless, with a warning, so that its
    /// content still decides what it is (a one-line JSON report is all body) and nothing of it is lost.
    package init(bytes: [UInt8], maxHeaderLineBytes: Int = IPSContainer.maxHeaderLineBytes) {
        var diagnostics: [Diagnostic] = []
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            start = 3
            diagnostics.append(
                Diagnostic(
                    .note,
                    .byteOrderMark,
                    "skipped a UTF-8 byte order mark",
                    at: SourceLocation(byteOffset: 0, line: 1, column: 1)
                )
            )
        }
        // Leading blank lines happen when reports are pasted.
        var lineNumber = 1
        while start < bytes.count {
            var i = start
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D { i += 1 }
            guard i < bytes.count, bytes[i] == 0x0A else { break }
            start = i + 1
            lineNumber += 1
        }
        let firstLineEnd = Self.lineEnd(bytes, from: start)
        var header: IPSHeader?
        var bodyStart = start
        var bodyLine = lineNumber
        if firstLineEnd - start > maxHeaderLineBytes {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .ipsHeaderLineTooLong,
                    "line \(lineNumber) is \(firstLineEnd - start) bytes long, more than the \(maxHeaderLineBytes) bytes "
                        + "of a header line; the file is read as having no header",
                    at: SourceLocation(byteOffset: start, line: lineNumber, column: 1)
                )
            )
        } else if let parsed = Self.parseHeaderLine(bytes, start, firstLineEnd) {
            header = parsed
            bodyStart = min(bytes.count, firstLineEnd + 1)
            bodyLine = lineNumber + 1
        } else if let repaired = Self.repairCutHeader(bytes, start, firstLineEnd) {
            header = repaired
            bodyStart = min(bytes.count, firstLineEnd + 1)
            bodyLine = lineNumber + 1
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .ipsHeaderCutAtFront,
                    "the header line was cut at the front; read it as if it began with '{\"'",
                    at: SourceLocation(byteOffset: start, line: lineNumber, column: 1)
                )
            )
        } else if let (wrapped, end, lines) = Self.joinWrappedHeader(bytes, start, firstLineEnd) {
            header = wrapped
            bodyStart = min(bytes.count, end + 1)
            bodyLine = lineNumber + lines
            diagnostics.append(
                Diagnostic(
                    .warning,
                    .ipsHeaderWrapped,
                    "the header was wrapped over \(lines) lines; joined them",
                    at: SourceLocation(byteOffset: start, line: lineNumber, column: 1)
                )
            )
        }
        if let code = header?.bugType, !BugType.isKnown(code) {
            diagnostics.append(
                Diagnostic(
                    .note,
                    .ipsUnknownBugType,
                    BugType.unknownCodeNote(code),
                    at: SourceLocation(byteOffset: start, line: lineNumber, column: 1)
                )
            )
        }
        self.header = header
        // A file without a header is all body: shared, not copied (a copy doubled the memory a large text took).
        // Otherwise copied in one piece: the generic copy of an array slice went element by element.
        self.body = bodyStart == 0 ? bytes : bytes[bodyStart...].withBorrowedBytes { $0.array }
        self.bodyOrigin = TextOrigin(byteOffset: bodyStart, line: bodyLine)
        self.bodyKind = Self.sniffBody(body)
        self.diagnostics = diagnostics
    }

    /// Parses the body as JSON, leniently, with locations pointing into the whole file.
    ///
    /// - Throws: ``InputError`` when the body holds no JSON at all or exceeds the limits.
    package func parseJSONBody(options: JSONParseOptions = JSONParseOptions()) throws(InputError) -> JSONDocument {
        try JSONDocument(bytes: body, options: options, origin: bodyOrigin)
    }

    // MARK: - Header line

    /// The longest line 1 read as a header: 64 KiB, hundreds of times a real one.
    package static let maxHeaderLineBytes = 1 << 16

    private static let headerKeys = ["bug_type", "os_version", "timestamp", "incident_id"]

    private static func lineEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
        return i
    }

    private static func isHeaderObject(_ element: JSONElement) -> Bool {
        guard element.kind == .object else { return false }
        return headerKeys.contains { element[$0] != nil }
    }

    private static func trimmedLine(_ bytes: [UInt8], _ start: Int, _ end: Int) -> ArraySlice<UInt8> {
        var e = end
        while e > start, bytes[e - 1] == 0x0D || bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 { e -= 1 }
        var s = start
        while s < e, bytes[s] == 0x20 || bytes[s] == 0x09 { s += 1 }
        return bytes[s..<e]
    }

    private static func parseHeaderLine(_ bytes: [UInt8], _ start: Int, _ end: Int) -> IPSHeader? {
        let line = trimmedLine(bytes, start, end)
        guard line.first == UInt8(ascii: "{"), line.last == UInt8(ascii: "}") else { return nil }
        return parseHeader(Array(line))
    }

    private static func parseHeader(_ text: [UInt8]) -> IPSHeader? {
        guard let document = try? JSONDocument(bytes: text, options: .strict), isHeaderObject(document.root) else {
            return nil
        }
        return IPSHeader(object: document.root)
    }

    /// `timestamp":"…","bug_type":"298"}`: a header whose first bytes were lost when it was pasted.
    private static func repairCutHeader(_ bytes: [UInt8], _ start: Int, _ end: Int) -> IPSHeader? {
        let line = trimmedLine(bytes, start, end)
        guard line.first != UInt8(ascii: "{"), line.last == UInt8(ascii: "}"), line.count < 64 * 1024 else {
            return nil
        }
        let quote = UInt8(ascii: "\"")
        for prefix in [[UInt8(ascii: "{"), quote], [UInt8(ascii: "{")]] {
            if let header = parseHeader(prefix + line) { return header }
        }
        return nil
    }

    /// A header that starts with `{"` on line 1 and closes on a later line (word-wrapped in a book or a post).
    private static func joinWrappedHeader(
        _ bytes: [UInt8],
        _ start: Int,
        _ firstEnd: Int
    ) -> (IPSHeader, Int, Int)? {
        let first = trimmedLine(bytes, start, firstEnd)
        guard first.count >= 2, first.first == UInt8(ascii: "{"), first.dropFirst().first == UInt8(ascii: "\"") else {
            return nil
        }
        var joined = Array(first)
        var end = firstEnd
        for lines in 2...8 {
            guard end < bytes.count else { return nil }
            let nextStart = end + 1
            end = lineEnd(bytes, from: nextStart)
            let next = trimmedLine(bytes, nextStart, end)
            if let last = joined.last, last != UInt8(ascii: ","), last != UInt8(ascii: ":") { joined.append(0x20) }
            joined.append(contentsOf: next)
            if joined.last == UInt8(ascii: "}"), let header = parseHeader(joined) { return (header, end, lines) }
            if joined.count > 16 * 1024 { return nil }
        }
        return nil
    }

    // MARK: - Body

    private static func sniffBody(_ body: [UInt8]) -> BodyKind {
        var i = 0
        while i < body.count {
            let b = body[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                i += 1
                continue
            }
            if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") { return .json }
            if b == UInt8(ascii: "\"") {
                // `"key" : value` lines without braces: JSON-like pasted excerpts.
                return .json
            }
            return .text
        }
        return .empty
    }
}
