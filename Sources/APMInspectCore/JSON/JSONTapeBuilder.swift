import ByteAccess

/// Builds a ``JSONDocument`` tape from bytes in one forward pass, with an explicit stack instead of recursion.
///
/// Strict mode follows RFC 8259 and throws at the first deviation. Lenient mode repairs what people paste
/// (comments, `...` elisions, trailing and missing commas, truncation, fragments without their enclosing braces)
/// and records each repair as a ``Diagnostic``. The hot path, plain JSON, is the same in both modes: the lenient
/// branches are taken only on bytes that strict JSON would reject.
struct JSONTapeBuilder {
    private enum State: UInt8 {
        case keyOrClose
        case colon
        case value
        case commaOrClose
    }

    private struct Frame {
        var node: Int
        var isObject: Bool
        var isImplicit: Bool
        var state: State
        /// Members or elements seen so far; written to the node when the container closes.
        var count: UInt32 = 0
    }

    private let buffer: BorrowedBytes
    private let options: JSONParseOptions
    private var pos = 0
    private(set) var nodes: JSONNodeBuffer
    /// The innermost open container (the synthetic root list at depth 1).
    private var cur = Frame(node: 0, isObject: false, isImplicit: true, state: .value)
    /// The containers enclosing ``cur``, outermost first.
    private var stack: [Frame] = []
    /// Open containers including ``cur``.
    private var depth: Int { stack.count + 1 }
    /// The repairs listed one by one (at most ``maxDiagnostics``).
    private var listed: [Diagnostic] = []
    /// The repairs past ``maxDiagnostics``: how many, and the byte range they lie in, so that the summary note
    /// says where the unlisted damage is (a reader can tell whether a value it misses fell in it).
    private var unlisted = (count: 0, first: 0, last: 0)
    /// The containers skipped for their depth (``JSONParseOptions/skipsTooDeep``), apart from the repairs.
    private(set) var depthCuts = JSONDepthCuts()
    private(set) var sawFragments = false
    private(set) var wasTruncated = false
    /// A raw control character was kept inside a string (reported for the first only).
    private var sawRawControl = false

    private static let maxDiagnostics = 40

    init(bytes buffer: BorrowedBytes, options: JSONParseOptions) {
        self.buffer = buffer
        self.options = options
        self.nodes = JSONNodeBuffer(capacity: buffer.count / 10)
    }

    // MARK: - Entry point

    /// Parses the whole buffer; returns the index of the root value (0 is the synthetic list of top-level items).
    mutating func build() throws(InputError) -> Int {
        guard buffer.count <= options.maxInputBytes else {
            throw InputError(.tooLarge, "input of \(buffer.count) bytes exceeds the limit of \(options.maxInputBytes)")
        }
        nodes.append(JSONNode(kind: .array, flags: JSONNode.syntheticFlag, start: 0, end: 0, next: 0, count: 0))
        cur = Frame(node: 0, isObject: false, isImplicit: true, state: .value)
        skipByteOrderMark()
        try run()
        try finishAtEndOfInput()
        let rootCount = nodes[0].count
        if rootCount == 0 {
            throw InputError(.empty, "no JSON value found", at: SourceLocation(byteOffset: buffer.count))
        }
        if rootCount == 1, !sawFragments, nodes.count > 1, nodes[1].flags & JSONNode.syntheticFlag == 0 {
            return 1
        }
        if !options.lenient {
            throw error(
                "more than one top-level value",
                at: Int(nodes[1].next < nodes.count ? nodes[Int(nodes[1].next)].start : 0)
            )
        }
        sawFragments = true
        return 0
    }

    // MARK: - Main loop

    private mutating func run() throws(InputError) {
        let n = buffer.count
        var lastPos = -1
        var stalls = 0
        while true {
            skipWhitespace()
            if pos >= n { return }
            // Safety net against loops on hostile input: a few state changes may happen at one byte, never many.
            if pos == lastPos {
                stalls += 1
                if stalls > 8 {
                    repair(.jsonUnplaceableByte, "skipped a byte the parser could not place", at: pos)
                    pos += 1
                    stalls = 0
                    continue
                }
            } else {
                lastPos = pos
                stalls = 0
            }
            let c = buffer[unchecked: pos]
            if c == UInt8(ascii: "/") || c == UInt8(ascii: ".") || c == 0xE2 || c == 0xC2 || c == UInt8(ascii: "#") {
                if try skipLenientTrivia() { continue }
            }
            switch cur.state {
            case .value:
                try parseValuePosition(c)
            case .commaOrClose:
                try parseAfterValue(c)
            case .keyOrClose:
                try parseKeyPosition(c)
            case .colon:
                if c == UInt8(ascii: ":") {
                    pos += 1
                    cur.state = .value
                } else if options.lenient {
                    repair(.jsonMissingColon, "expected ':' after the key; assumed one", at: pos)
                    cur.state = .value
                } else {
                    throw error("expected ':' after object key", at: pos)
                }
            }
        }
    }

    private mutating func parseValuePosition(_ c: UInt8) throws(InputError) {
        let isRoot = stack.isEmpty
        if isRoot {
            if !options.lenient && cur.count >= 1 {
                throw error("unexpected data after the top-level value", at: pos)
            }
            if options.lenient {
                if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                    sawFragments = true
                    repair(
                        .jsonUnmatchedClose,
                        "skipped an unmatched '\(Character(Unicode.Scalar(c)))': the text before it is a fragment",
                        at: pos
                    )
                    pos += 1
                    return
                }
                if c == UInt8(ascii: ",") {
                    sawFragments = true
                    pos += 1
                    return
                }
                if c == UInt8(ascii: "\""), looksLikeKey() {
                    sawFragments = true
                    repair(.jsonMembersWithoutObject, "members without an enclosing object; read them as one", at: pos)
                    cur.count += 1
                    let index = nodes.count
                    nodes.append(
                        JSONNode(
                            kind: .object,
                            flags: JSONNode.syntheticFlag,
                            start: UInt32(pos),
                            end: 0,
                            next: 0,
                            count: 0
                        )
                    )
                    try push(Frame(node: index, isObject: true, isImplicit: true, state: .keyOrClose))
                    return
                }
            }
        } else if c == UInt8(ascii: "]") || c == UInt8(ascii: "}") {
            // A close where a value was expected: `[]`, or a trailing comma, or a key left without value.
            if cur.isObject {
                if !options.lenient { throw error("expected a value after ':'", at: pos) }
                repair(.jsonKeyWithoutValue, "key without a value before '}'; dropped the key", at: pos)
                dropDanglingKey()
            } else if cur.count > 0 || c != UInt8(ascii: "]") {
                if !options.lenient { throw error("expected a value", at: pos) }
                if cur.count > 0 { repair(.jsonTrailingComma, "trailing comma", at: pos) }
            }
            try close(c)
            return
        }
        try parseValue(c)
    }

    private mutating func parseKeyPosition(_ c: UInt8) throws(InputError) {
        if c == UInt8(ascii: "\"") {
            if try parseString() {
                cur.count += 1
                cur.state = .colon
            }
            return
        }
        if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
            if cur.count > 0 {
                if !options.lenient { throw error("trailing comma before '}'", at: pos) }
                repair(.jsonTrailingComma, "trailing comma", at: pos)
            }
            try close(c)
            return
        }
        if c == UInt8(ascii: ","), options.lenient {
            repair(.jsonExtraComma, "extra ','", at: pos)
            pos += 1
            return
        }
        guard options.lenient else { throw error("expected a string key or '}'", at: pos) }
        repair(.jsonSkippedText, "skipped text where an object key was expected", at: pos)
        skipToLineEnd()
    }

    private mutating func parseAfterValue(_ c: UInt8) throws(InputError) {
        if c == UInt8(ascii: ",") {
            pos += 1
            cur.state = cur.isObject ? .keyOrClose : .value
            return
        }
        if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
            try close(c)
            return
        }
        guard options.lenient else {
            throw error(cur.isObject ? "expected ',' or '}'" : "expected ',' or ']'", at: pos)
        }
        repair(.jsonMissingComma, "missing ','; assumed one", at: pos)
        cur.state = cur.isObject ? .keyOrClose : .value
    }

    // MARK: - Values

    private mutating func parseValue(_ c: UInt8) throws(InputError) {
        switch c {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = c == UInt8(ascii: "{")
            // Where `push` would refuse it, as the fast builder skips: a strict and a repaired copy read alike.
            if options.skipsTooDeep, depth > options.maxDepth {
                skipTooDeep(isObject: isObject)
                return
            }
            valueAdded()
            let index = nodes.count
            nodes.append(
                JSONNode(kind: isObject ? .object : .array, flags: 0, start: UInt32(pos), end: 0, next: 0, count: 0)
            )
            pos += 1
            try push(Frame(node: index, isObject: isObject, isImplicit: false, state: isObject ? .keyOrClose : .value))
        case UInt8(ascii: "\""):
            if try parseString() { valueAdded() } else { valueLost() }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"):
            if try parseNumber() { valueAdded() } else { valueLost() }
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            if matchLiteral("true") {
                appendLiteral(.bool, flags: JSONNode.trueFlag, length: 4)
            } else if matchLiteral("false") {
                appendLiteral(.bool, flags: 0, length: 5)
            } else if matchLiteral("null") {
                appendLiteral(.null, flags: 0, length: 4)
            } else {
                try skipBadValue()
            }
        default:
            try skipBadValue()
        }
    }

    /// Counts a new element of an array parent (object members were counted at their key).
    @inline(__always)
    private mutating func valueAdded() {
        if !cur.isObject { cur.count += 1 }
        // The root list of top-level items never needs commas between them.
        cur.state = stack.isEmpty ? .value : .commaOrClose
    }

    /// A value was cut off at the end of input: an object member loses its key too.
    private mutating func valueLost() {
        if cur.isObject { dropDanglingKey() }
    }

    private mutating func skipBadValue() throws(InputError) {
        guard options.lenient else { throw error("expected a JSON value", at: pos) }
        repair(.jsonSkippedText, "skipped text that is not a JSON value", at: pos)
        if cur.isObject { dropDanglingKey() }
        let before = pos
        skipToDelimiter()
        // `[1,,2]`: the stray delimiter itself must be consumed, or the same byte would be read again forever.
        if pos == before { pos += 1 }
    }

    private mutating func appendLiteral(_ kind: JSONNode.Kind, flags: UInt8, length: Int) {
        valueAdded()
        let index = nodes.count
        nodes.append(
            JSONNode(
                kind: kind,
                flags: flags,
                start: UInt32(pos),
                end: UInt32(pos + length),
                next: UInt32(index + 1),
                count: 0
            )
        )
        pos += length
    }

    private func matchLiteral(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard pos + length <= buffer.count else { return false }
        return buffer.matches(literal, at: pos)
    }

    /// Appends a string node; returns false when the input ended inside it (the partial text is not kept).
    ///
    /// Lenient mode keeps raw control characters inside a string, with a warning at the first (the text is not JSON,
    /// and a report holding them is damaged), and ends a string at a raw line break (a JSON string cannot contain
    /// one, so the string was cut off there).
    private mutating func parseString() throws(InputError) -> Bool {
        let open = pos
        let start = pos + 1
        let n = buffer.count
        var p = start
        var hasEscapes = false
        while true {
            let run = JSONScanning.scanStringRun(buffer, from: p)
            hasEscapes = hasEscapes || run.hasEscapes
            p = run.end
            guard p < n else { break }
            let b = buffer[unchecked: p]
            let flags = hasEscapes ? JSONNode.hasEscapesFlag : 0
            if b == UInt8(ascii: "\"") {
                appendString(start: start, end: p, flags: flags)
                pos = p + 1
                return true
            }
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
                guard options.lenient else { throw error("unterminated string", at: open) }
                repair(.jsonUnterminatedString, "unterminated string; ended it at the end of the line", at: open)
                appendString(start: start, end: p, flags: flags | JSONNode.truncatedFlag)
                pos = p
                return true
            }
            guard options.lenient else { throw error("control character inside a string", at: p) }
            if !sawRawControl {
                // Said once: a damaged field holds them by the hundred, and each would crowd out other repairs.
                sawRawControl = true
                let code = "0x" + (b < 0x10 ? "0" : "") + String(b, radix: 16, uppercase: true)
                repair(
                    .jsonRawControlCharacter,
                    "raw control character \(code) inside a string (JSON escapes them); kept as read, as are any others",
                    at: p
                )
            }
            p += 1
        }
        // End of input inside a string: the scalar is incomplete and is dropped by the end-of-input handling.
        pos = n
        if !options.lenient { throw error("unterminated string", at: open) }
        wasTruncated = true
        return false
    }

    private mutating func appendString(start: Int, end: Int, flags: UInt8) {
        let index = nodes.count
        nodes.append(
            JSONNode(
                kind: .string,
                flags: flags,
                start: UInt32(start),
                end: UInt32(end),
                next: UInt32(index + 1),
                count: 0
            )
        )
    }

    /// Appends a number node; returns false when the input ended inside it (its digits may be incomplete).
    private mutating func parseNumber() throws(InputError) -> Bool {
        let start = pos
        let (end, valid) = JSONScanning.scanNumber(buffer, from: start)
        pos = end
        if pos == buffer.count, !stack.isEmpty {
            // Cut at the end of input: the digits may be incomplete.
            if !options.lenient { throw error("unexpected end of input in a number", at: start) }
            wasTruncated = true
            return false
        }
        if !valid {
            guard options.lenient else { throw error("malformed number", at: start) }
            repair(.jsonMalformedNumber, "malformed number kept as text", at: start)
        }
        let index = nodes.count
        nodes.append(
            JSONNode(
                kind: .number,
                flags: 0,
                start: UInt32(start),
                end: UInt32(pos),
                next: UInt32(index + 1),
                count: 0
            )
        )
        return true
    }

    // MARK: - Containers

    private mutating func push(_ frame: Frame) throws(InputError) {
        if depth > options.maxDepth {
            throw error("nesting deeper than \(options.maxDepth) levels", at: pos, code: .tooDeep)
        }
        stack.append(cur)
        cur = frame
    }

    /// Records the container at ``pos`` by its byte range, up to its closing bracket or the end of the input.
    private mutating func skipTooDeep(isObject: Bool) {
        let start = pos
        var unused = false
        let end = JSONScanning.matchingBracket(buffer, from: start, maxNesting: Int.max, probeHit: &unused)
        valueAdded()
        let stop = end ?? buffer.count
        nodes.append(
            JSONNode(
                kind: isObject ? .object : .array,
                flags: JSONNode.opaqueFlag | (end == nil ? JSONNode.truncatedFlag : 0),
                start: UInt32(start),
                end: UInt32(stop),
                next: UInt32(nodes.count + 1),
                count: 0
            )
        )
        depthCuts.add(at: start, in: buffer, maxDepth: options.maxDepth)
        pos = stop
    }

    private mutating func close(_ c: UInt8) throws(InputError) {
        guard !stack.isEmpty else { return }
        let frame = cur
        let expected = frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if c != expected {
            guard options.lenient else {
                throw error(
                    "expected '\(Character(Unicode.Scalar(expected)))' but found '\(Character(Unicode.Scalar(c)))'",
                    at: pos
                )
            }
            if frame.isImplicit {
                // A fragment's members end where the enclosing array closes; leave the ']' for the root.
                finishContainer(end: pos)
                return
            }
            repair(
                .jsonMismatchedClose,
                "mismatched '\(Character(Unicode.Scalar(c)))'; closed the open container",
                at: pos
            )
        }
        pos += 1
        finishContainer(end: pos)
    }

    private mutating func finishContainer(end: Int) {
        guard let parent = stack.popLast() else { return }
        let frame = cur
        nodes[frame.node].end = UInt32(end)
        nodes[frame.node].next = UInt32(nodes.count)
        nodes[frame.node].count = frame.count
        if frame.isImplicit { nodes[frame.node].flags |= JSONNode.syntheticFlag }
        cur = parent
        cur.state = stack.isEmpty ? .value : .commaOrClose
    }

    private mutating func dropDanglingKey() {
        guard cur.isObject, let last = nodes.last, last.kind == .string, nodes.count - 1 > cur.node else { return }
        nodes.removeLast()
        cur.count -= 1
        cur.state = .commaOrClose
    }

    private mutating func finishAtEndOfInput() throws(InputError) {
        nodes[0].end = UInt32(buffer.count)
        guard !stack.isEmpty else {
            nodes[0].next = UInt32(nodes.count)
            nodes[0].count = cur.count
            return
        }
        let open = stack.count
        let onlyImplicit = stack.dropFirst().allSatisfy(\.isImplicit) && cur.isImplicit
        guard options.lenient else {
            throw error("unexpected end of input inside \(open) open container(s)", at: buffer.count)
        }
        if cur.isObject, cur.state == .colon || cur.state == .value {
            dropDanglingKey()
        }
        if !onlyImplicit {
            wasTruncated = true
            repair(
                .jsonTruncated,
                "input ends inside \(open) open container(s): truncated; closed them",
                at: buffer.count
            )
        }
        while !stack.isEmpty {
            if !cur.isImplicit { nodes[cur.node].flags |= JSONNode.truncatedFlag }
            finishContainer(end: buffer.count)
        }
        nodes[0].next = UInt32(nodes.count)
        nodes[0].count = cur.count
    }

    // MARK: - Trivia

    private mutating func skipByteOrderMark() {
        if buffer.count >= 3, buffer[unchecked: 0] == 0xEF, buffer[unchecked: 1] == 0xBB, buffer[unchecked: 2] == 0xBF {
            pos = 3
            if !options.lenient { return }
            note(.byteOrderMark, "skipped a UTF-8 byte order mark", at: 0)
        }
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        pos = JSONScanning.skipWhitespace(buffer, from: pos)
    }

    /// Skips a comment, an elision line, or a non-breaking space; returns false when the byte starts real data.
    private mutating func skipLenientTrivia() throws(InputError) -> Bool {
        let n = buffer.count
        let c = buffer[unchecked: pos]
        if c == UInt8(ascii: "/"), pos + 1 < n, buffer[unchecked: pos + 1] == UInt8(ascii: "/") {
            guard options.lenient else { throw error("comments are not JSON", at: pos) }
            repair(.jsonComment, "skipped a // comment", at: pos)
            skipToLineEnd()
            return true
        }
        if c == UInt8(ascii: "/"), pos + 1 < n, buffer[unchecked: pos + 1] == UInt8(ascii: "*") {
            guard options.lenient else { throw error("comments are not JSON", at: pos) }
            repair(.jsonComment, "skipped a /* */ comment", at: pos)
            pos += 2
            while pos + 1 < n,
                !(buffer[unchecked: pos] == UInt8(ascii: "*") && buffer[unchecked: pos + 1] == UInt8(ascii: "/"))
            { pos += 1 }
            pos = min(n, pos + 2)
            return true
        }
        if c == UInt8(ascii: "#") {
            guard options.lenient else { throw error("comments are not JSON", at: pos) }
            repair(.jsonComment, "skipped a # comment", at: pos)
            skipToLineEnd()
            return true
        }
        if c == UInt8(ascii: ".")
            || (c == 0xE2 && pos + 2 < n && buffer[unchecked: pos + 1] == 0x80 && buffer[unchecked: pos + 2] == 0xA6)
        {
            guard options.lenient else { throw error("'...' is not JSON", at: pos) }
            repair(.jsonElision, "skipped an elision ('...')", at: pos)
            skipToLineEnd()
            return true
        }
        if c == 0xC2, pos + 1 < n, buffer[unchecked: pos + 1] == 0xA0 {
            guard options.lenient else { throw error("non-breaking space outside a string", at: pos) }
            pos += 2
            return true
        }
        return false
    }

    private mutating func skipToLineEnd() {
        let n = buffer.count
        while pos < n, buffer[unchecked: pos] != 0x0A { pos += 1 }
    }

    private mutating func skipToDelimiter() {
        let n = buffer.count
        while pos < n {
            let b = buffer[unchecked: pos]
            if b == UInt8(ascii: ",") || b == UInt8(ascii: "}") || b == UInt8(ascii: "]") || b == 0x0A { return }
            pos += 1
        }
    }

    /// True when the string at `pos` is followed by a colon: an object key.
    private func looksLikeKey() -> Bool {
        var i = pos + 1
        let n = buffer.count
        while i < n {
            let b = buffer[unchecked: i]
            if b == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if b == UInt8(ascii: "\"") || b == 0x0A { break }
            i += 1
        }
        guard i < n, buffer[unchecked: i] == UInt8(ascii: "\"") else { return false }
        i += 1
        while i < n, buffer[unchecked: i] == 0x20 || buffer[unchecked: i] == 0x09 { i += 1 }
        return i < n && buffer[unchecked: i] == UInt8(ascii: ":")
    }

    // MARK: - Findings

    private mutating func repair(_ code: Diagnostic.Code, _ message: String, at offset: Int) {
        record(.warning, code, message, at: offset)
    }

    private mutating func note(_ code: Diagnostic.Code, _ message: String, at offset: Int) {
        record(.note, code, message, at: offset)
    }

    private mutating func record(
        _ severity: Diagnostic.Severity,
        _ code: Diagnostic.Code,
        _ message: String,
        at offset: Int
    ) {
        if listed.count < Self.maxDiagnostics {
            let location = TextPosition.location(in: buffer, byteOffset: offset)
            listed.append(Diagnostic(severity, code, message, at: location))
        } else {
            if unlisted.count == 0 { unlisted.first = offset }
            unlisted.count += 1
            unlisted.first = min(unlisted.first, offset)
            unlisted.last = max(unlisted.last, offset)
        }
    }

    /// The listed repairs, then one note for the rest: their number and the bytes from the first to the last.
    var diagnostics: [Diagnostic] {
        guard unlisted.count > 0 else { return listed }
        var location = TextPosition.location(in: buffer, byteOffset: unlisted.first)
        location.lastByteOffset = unlisted.last
        let note = Diagnostic(
            .note,
            .jsonMoreRepairsNotListed,
            "\(unlisted.count) further repair(s) not listed, at bytes \(unlisted.first)–\(unlisted.last)",
            at: location
        )
        return listed + [note]
    }

    /// The byte range of the repairs not listed one by one, nil when every repair is listed.
    var unlistedRepairs: ClosedRange<Int>? {
        unlisted.count > 0 ? unlisted.first...unlisted.last : nil
    }

    private func error(_ message: String, at offset: Int, code: InputError.Code = .syntax) -> InputError {
        InputError(code, message, at: TextPosition.location(in: buffer, byteOffset: offset))
    }
}
