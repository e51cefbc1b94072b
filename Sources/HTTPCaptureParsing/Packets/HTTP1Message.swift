import APMInspectCore
import ByteAccess

/// One HTTP/1.x message found in a reassembled stream, with its byte range.
struct HTTP1Message {
    var start: Int
    var headerEnd: Int
    var end: Int
    var startLine: String {
        didSet { parsedStartLine = HTTP1StartLine(startLine) }
    }
    /// `startLine` split once: its accessors are read several times for each message.
    private(set) var parsedStartLine: HTTP1StartLine
    var headers: [HTTPTransaction.Header]
    var bodyBytes: Int64
    /// The body after de-chunking and content decoding; -1 when it could not be decoded (br, cut off).
    var decodedBytes: Int64
    /// False when the stream ended before the message did, or a hole in the capture cut it.
    var complete: Bool
    /// Bytes of this message that were never captured (holes inside it).
    var missingBytes: Int64 = 0
    /// True when bytes went missing between the previous message and this one, so whole messages may have been
    /// lost there and FIFO pairing cannot be trusted.
    var afterHole = false
    /// Captured bytes after a hole that were passed over to find this message's start line.
    var skippedBefore = 0
    /// Bytes never captured between the previous message and this one.
    var missingBefore: Int64 = 0

    init(
        start: Int,
        headerEnd: Int,
        end: Int,
        startLine: String,
        headers: [HTTPTransaction.Header],
        bodyBytes: Int64,
        decodedBytes: Int64,
        complete: Bool
    ) {
        self.start = start
        self.headerEnd = headerEnd
        self.end = end
        self.startLine = startLine
        self.parsedStartLine = HTTP1StartLine(startLine)
        self.headers = headers
        self.bodyBytes = bodyBytes
        self.decodedBytes = decodedBytes
        self.complete = complete
    }

    var method: String { parsedStartLine.method }

    /// The response status code (nil for requests).
    var status: Int? { parsedStartLine.status }

    var version: String { parsedStartLine.version }

    /// True when `bytes` start like an HTTP/1.x request line; a line longer than the 8 KiB looked at only needs its
    /// method and a space.
    ///
    /// The method is any token (RFC 9110 §9.1: `PROPFIND`, `CCM_POST`, `M-SEARCH`) of at most
    /// ``HTTPSyntax/maxMethodLength`` characters, followed by one space; then the line is one of
    /// - `METHOD target HTTP/1.x`, the target possibly empty (`GET  HTTP/1.1`);
    /// - `METHOD HTTP/1.x`: a request line without its target;
    /// - `METHOD /path` with a method of RFC 9110 (``HTTPSyntax/standardMethods``): an HTTP/0.9-style line without
    ///   a version, its target in origin form without control characters.
    static func looksLikeRequest(_ bytes: [UInt8]) -> Bool {
        bytes.withBorrowedBytes { looksLikeRequest($0) }
    }

    /// ``looksLikeRequest(_:)-([UInt8])`` on the bytes where they are, read as bytes when the first line is ASCII
    /// without CR (where a space is a `Character` of its own, and an upper-case ASCII letter is one byte): copying
    /// 8 KiB and splitting the line by `Character` cost 21,000 instructions for each message of a pcap.
    static func looksLikeRequest(_ bytes: BorrowedBytes) -> Bool {
        let window = bytes.prefix(8192)
        let feed = window.firstIndex(of: 0x0A)
        var lineEnd = feed ?? window.firstIndex(of: 0x0D) ?? window.count
        if let feed, feed > 0, window[feed - 1] == 0x0D { lineEnd = feed - 1 }
        let line = window.slice(0..<lineEnd)
        // The whole line is looked at: a combining mark after any space makes it a `Character` of its own.
        var firstSpace = -1
        var secondSpace = -1
        var spaces = 0
        for (k, byte) in line.enumerated() {
            if byte >= 0x80 || byte == 0x0D { return looksLikeRequestByCharacters(window) }
            if byte == UInt8(ascii: " ") {
                if spaces == 0 { firstSpace = k } else if spaces == 1 { secondSpace = k }
                spaces += 1
            }
        }
        guard spaces > 0 else { return false }
        let method = line.slice(0..<firstSpace)
        guard HTTPSyntax.isMethod(method) else { return false }
        guard feed != nil else { return true }
        let second = line.slice(from: firstSpace + 1)
        switch spaces {
        case 2: return line.slice(from: secondSpace + 1).hasPrefix("HTTP/1.")
        case 1:
            if second.hasPrefix("HTTP/1.") { return true }
            return second.first == UInt8(ascii: "/") && !second.contains(where: { $0 < 0x20 || $0 == 0x7F })
                && HTTPSyntax.standardMethods.contains { method.elementsEqual($0.utf8) }
        default: return false
        }
    }

    /// ``looksLikeRequest(_:)-([UInt8])`` by `Character`: the reference the byte reading is held to, and the path
    /// for first lines that are not plain ASCII.
    static func looksLikeRequestByCharacters(_ bytes: BorrowedBytes) -> Bool {
        let window = bytes.prefix(8192)
        // The line ends at its LF; the CR before it is optional (HTTP/1.x allows a bare LF, RFC 9112 §2.2).
        let feed = window.firstIndex(of: 0x0A)
        let complete = feed != nil
        var lineEnd = feed ?? window.firstIndex(of: 0x0D) ?? window.count
        if let feed, feed > 0, window[feed - 1] == 0x0D { lineEnd = feed - 1 }
        let line = window.slice(0..<lineEnd).string
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count >= 2, let method = parts.first, HTTPSyntax.isMethod(method) else { return false }
        guard complete else { return true }
        switch parts.count {
        case 3: return parts[2].hasPrefix("HTTP/1.")
        case 2:
            if parts[1].hasPrefix("HTTP/1.") { return true }
            return parts[1].first == "/" && !parts[1].utf8.contains(where: { $0 < 0x20 || $0 == 0x7F })
                && HTTPSyntax.standardMethods.contains { method == $0 }
        default: return false
        }
    }

    /// Parses consecutive messages from `bytes`.
    ///
    /// A hole in the capture does not end the parse: a message that crosses one ends where its framing says, and
    /// when the framing cannot say (the hole is in a header block or a chunk-size line, or swallowed a message
    /// boundary), the parse resumes at the next plausible start line after the hole.
    ///
    /// - Parameters:
    ///   - bytes: A reassembled stream of one direction.
    ///   - isResponse: True for the server side: responses take their body framing from the request's method.
    ///   - methods: The methods of the requests on the connection, in order (FIFO pairing, 1xx skipped).
    ///   - versionless: For each request, true when its line has no HTTP version (HTTP/0.9 style): when no status
    ///     line answers it, its response is the bytes up to the connection's close.
    ///   - gaps: The stream's holes.
    ///   - maxDecoded: The most bytes a gzip or deflate body may inflate to.
    /// - Returns: The messages in stream order; the last one is marked incomplete when the stream ends inside it.
    static func parseAll(
        _ bytes: [UInt8],
        isResponse: Bool,
        methods: [String] = [],
        versionless: [Bool] = [],
        gaps: [TCPStream.Gap] = [],
        maxDecoded: Int
    ) -> [HTTP1Message] {
        var messages: [HTTP1Message] = []
        var offset = 0
        var requestIndex = 0
        var holes = StreamHoles(gaps)
        // Bytes may be missing between the previous message and the next one: whole messages may be lost there.
        var holeBefore = false
        var skipped = 0
        var missingBefore: Int64 = 0
        bytes.withBorrowedBytes { buffer in
            while offset < buffer.count, messages.count < 1_000_000 {
                let unskipped = offset
                // Tolerate stray CRLFs between messages.
                while offset < buffer.count, buffer[offset] == 0x0D || buffer[offset] == 0x0A { offset += 1 }
                guard offset < buffer.count else { break }
                let passed = holes.pass(upTo: offset)
                if passed > 0 {
                    holeBefore = true
                    missingBefore += passed
                }
                let rest = buffer.slice(offset..<(offset + 8192))
                let startsMessage =
                    isResponse ? HTTPSyntax.startsStatusLine(rest) : looksLikeRequest(rest)
                if !startsMessage, isResponse, !holeBefore, versionless.indices.contains(requestIndex),
                    versionless[requestIndex]
                {
                    messages.append(simpleResponse(buffer, from: unskipped, holes: &holes))
                    break
                }
                if !startsMessage {
                    // Whatever follows that is not a message (a tunnel after CONNECT, garbage) ends the parse, unless
                    // a hole explains it: then the parse resumes at the next start line after the hole.
                    guard holeBefore || holes.next != nil else { break }
                    let from = holeBefore ? offset : Swift.max(offset, holes.next?.at ?? offset)
                    guard let found = StreamHoles.nextMessageStart(buffer, from: from, isResponse: isResponse),
                        found > offset
                    else { break }
                    skipped += found - offset
                    offset = found
                    missingBefore += holes.pass(upTo: offset)
                    holeBefore = true
                }
                // A header block never runs across a hole: what follows the hole may be another message.
                let limit = Swift.min(buffer.count, holes.next?.at ?? buffer.count)
                let head = buffer.slice(0..<limit)
                if !isResponse, var simple = simpleRequest(head, from: offset) {
                    simple.afterHole = holeBefore
                    simple.skippedBefore = skipped
                    simple.missingBefore = missingBefore
                    holeBefore = false
                    skipped = 0
                    missingBefore = 0
                    messages.append(simple)
                    offset = simple.end
                    continue
                }
                guard let (headerEnd, bodyStart) = headerBlockEnd(head, from: offset) else {
                    let line = buffer.slice(offset..<Swift.min(limit, offset + 200)).string
                    var cut = HTTP1Message(
                        start: offset,
                        headerEnd: limit,
                        end: limit,
                        startLine: String(
                            decoding: line.utf8.prefix { $0 != 0x0A && $0 != 0x0D },
                            as: UTF8.self
                        ),
                        headers: [],
                        bodyBytes: -1,
                        decodedBytes: -1,
                        complete: false
                    )
                    cut.afterHole = holeBefore
                    cut.skippedBefore = skipped
                    cut.missingBytes = holes.next?.length ?? 0
                    cut.missingBefore = missingBefore
                    // The hole's bytes are this message's: the next one does not count them as lost before it.
                    _ = holes.pass(upTo: limit)
                    missingBefore = 0
                    messages.append(cut)
                    guard limit < buffer.count, limit > offset else { break }
                    if isResponse && !(100..<200).contains(cut.status ?? 0) { requestIndex += 1 }
                    offset = limit
                    holeBefore = true
                    skipped = 0
                    continue
                }
                let (startLine, headers) = HTTP1HeaderBlock.parse(buffer.slice(offset..<headerEnd))
                guard isResponse ? HTTPSyntax.startsWithHTTPName(line: startLine) : startLine.contains(ascii: " HTTP/")
                else {
                    break
                }
                var message = HTTP1Message(
                    start: offset,
                    headerEnd: bodyStart,
                    end: bodyStart,
                    startLine: startLine,
                    headers: headers,
                    bodyBytes: 0,
                    decodedBytes: 0,
                    complete: true
                )
                message.afterHole = holeBefore
                message.skippedBefore = skipped
                message.missingBefore = missingBefore
                holeBefore = false
                skipped = 0
                missingBefore = 0
                let status = message.status ?? 0
                let method = isResponse && requestIndex < methods.count ? methods[requestIndex] : ""
                let tunnel = method == "CONNECT" && (200..<300).contains(status)
                let noBody =
                    isResponse
                    ? (method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304 || tunnel)
                    : false
                let transferEncoding = HTTPTransaction.headerValue("Transfer-Encoding", in: headers)?.lowercased() ?? ""
                let contentLength = HTTPTransaction.headerValue("Content-Length", in: headers).flatMap {
                    Int64($0.trimmingSpaces)
                }
                // A chunked body is joined into `body`; any other stays where it is (`bodyRange`), and is copied only
                // when it is to be inflated: most bodies are counted, not decoded.
                var body: [UInt8] = []
                var bodyRange: Range<Int>?
                // Where the next message starts when a hole hides it (nil: right at `message.end`).
                var resumeAt: Int?
                if noBody {
                    message.end = bodyStart
                } else if transferEncoding.contains(ascii: "chunked") {
                    let walk = dechunk(buffer, from: bodyStart, holes: &holes)
                    message.end = walk.end
                    body = walk.body
                    message.bodyBytes = Int64(walk.end - bodyStart) + walk.missing
                    message.missingBytes = walk.missing
                    message.complete = walk.complete && walk.missing == 0
                    if walk.lost {
                        resumeAt = walk.end
                        message.bodyBytes = -1
                    }
                } else if let contentLength, contentLength >= 0 {
                    let framed = holes.end(from: bodyStart, length: contentLength, available: buffer.count)
                    message.end = framed.end
                    message.missingBytes = framed.missing
                    let captured = Int64(framed.end - bodyStart)
                    message.bodyBytes = framed.exact ? captured + framed.missing : contentLength
                    message.complete = framed.exact && framed.missing == 0 && captured == contentLength
                    if !framed.exact { resumeAt = framed.end }
                    if framed.missing == 0 {
                        bodyRange = bodyStart..<Swift.max(bodyStart, message.end)
                    }
                } else if isResponse {
                    // Read until close; a hole inside leaves the length unknown, and a status line after it shows
                    // the server went on answering.
                    message.end = buffer.count
                    if let gap = holes.next, gap.at >= bodyStart,
                        let found = StreamHoles.nextMessageStart(buffer, from: gap.at, isResponse: true)
                    {
                        message.end = Swift.min(gap.at, buffer.count)
                        message.missingBytes = gap.length
                        message.complete = false
                        resumeAt = found
                        skipped = Swift.max(0, found - message.end)
                    } else if let gap = holes.next, gap.at >= bodyStart {
                        message.missingBytes = holes.gaps.dropFirst(holes.cursor).reduce(0) { $0 + $1.length }
                        message.complete = false
                        _ = holes.pass(upTo: buffer.count)
                    }
                    message.bodyBytes = Int64(message.end - bodyStart) + message.missingBytes
                    if message.missingBytes == 0 {
                        bodyRange = bodyStart..<Swift.max(bodyStart, message.end)
                    }
                } else {
                    message.end = bodyStart
                }
                message.decodedBytes =
                    message.missingBytes > 0 || resumeAt != nil
                    ? -1
                    : bodyRange.map {
                        decodedLength(
                            buffer.slice($0),
                            headers: headers,
                            complete: message.complete,
                            maxDecoded: maxDecoded
                        )
                    }
                        ?? body.withBorrowedBytes {
                            decodedLength($0, headers: headers, complete: message.complete, maxDecoded: maxDecoded)
                        }
                messages.append(message)
                if isResponse && !(100..<200).contains(status) { requestIndex += 1 }
                if isResponse && status == 101 { break }  // switching protocols: the rest is not HTTP/1
                if isResponse && method == "CONNECT" && (200..<300).contains(status) { break }  // a tunnel from here on
                if let resumeAt {
                    guard resumeAt > offset else { break }
                    offset = resumeAt
                    holeBefore = true
                } else {
                    guard message.end > offset else { break }
                    offset = message.end
                }
            }
        }
        return messages
    }

    /// The HTTP/0.9-style request line at `from` (a method and a target, no version), which is the whole request.
    ///
    /// No header block follows it. Nil when the line at `from` has a version or no line end before `head` ends.
    private static func simpleRequest(_ head: BorrowedBytes, from: Int) -> HTTP1Message? {
        guard from >= 0, from < head.count else { return nil }
        // Offsets are the stream's: the line is looked for within 8 KiB of `from`.
        guard let feed = head.firstIndex(of: 0x0A, in: from..<Swift.min(head.count, from + 8192)) else { return nil }
        let lineEnd = feed > from && head[feed - 1] == 0x0D ? feed - 1 : feed
        // Nearly every line ends in its version: that is told from the bytes, without making a string.
        var wordEnd = lineEnd
        while wordEnd > from, head[wordEnd - 1] == UInt8(ascii: " ") { wordEnd -= 1 }
        let lastSpace = head.lastIndex(of: UInt8(ascii: " "), in: from..<wordEnd)
        if let lastSpace, head.slice((lastSpace + 1)..<wordEnd).hasPrefix("HTTP/") {
            return nil
        }
        let line = head.slice(from..<lineEnd).string
        let message = HTTP1Message(
            start: from,
            headerEnd: feed + 1,
            end: feed + 1,
            startLine: line,
            headers: [],
            bodyBytes: 0,
            decodedBytes: 0,
            complete: true
        )
        return message.version.isEmpty ? message : nil
    }

    /// The response to an HTTP/0.9-style request that no status line starts.
    ///
    /// It has no headers; its body is the bytes up to the connection's close (RFC 1945 §6). Holes in it leave its
    /// length known and its content unread.
    private static func simpleResponse(_ buffer: BorrowedBytes, from: Int, holes: inout StreamHoles)
        -> HTTP1Message
    {
        var message = HTTP1Message(
            start: from,
            headerEnd: from,
            end: buffer.count,
            startLine: "",
            headers: [],
            bodyBytes: Int64(buffer.count - from),
            decodedBytes: Int64(buffer.count - from),
            complete: true
        )
        if holes.next != nil {
            message.missingBytes = holes.gaps.dropFirst(holes.cursor).reduce(0) { $0 + $1.length }
            message.bodyBytes += message.missingBytes
            message.decodedBytes = -1
            message.complete = false
            _ = holes.pass(upTo: buffer.count)
        }
        return message
    }

    private static func decodedLength(
        _ body: BorrowedBytes,
        headers: [HTTPTransaction.Header],
        complete: Bool,
        maxDecoded: Int
    )
        -> Int64
    {
        let encoding = HTTPTransaction.headerValue("Content-Encoding", in: headers)?.lowercased().trimmingSpaces ?? ""
        if encoding.isEmpty || encoding == "identity" { return Int64(body.count) }
        guard encoding == "gzip" || encoding == "x-gzip" || encoding == "deflate", !body.isEmpty else {
            return body.isEmpty ? 0 : -1
        }
        // `deflate` is meant to be zlib, but raw deflate is sent too and browsers accept it: both are read.
        let bytes = body.array
        let inflated =
            encoding == "deflate"
            ? (try? Inflate.decompressHTTPDeflate(bytes, maxOutputBytes: maxDecoded))?.result
            : try? Inflate.decompress(bytes, maxOutputBytes: maxDecoded)
        guard let result = inflated else { return -1 }
        return result.isTruncated && complete ? -1 : Int64(result.bytes.count)
    }

    /// What walking a chunked body found.
    struct ChunkWalk {
        var end: Int
        var body: [UInt8]
        var complete: Bool
        /// Body bytes lost in holes.
        var missing: Int64 = 0
        /// True when a hole hid the framing (a chunk-size line, or the end of a chunk): `end` is the hole's start.
        var lost = false
    }

    /// Walks chunked framing from `start`, across holes whose length the chunk sizes account for.
    private static func dechunk(_ buffer: BorrowedBytes, from start: Int, holes: inout StreamHoles)
        -> ChunkWalk
    {
        var offset = start
        var walk = ChunkWalk(end: buffer.count, body: [], complete: false)
        while offset < buffer.count {
            // A size line never runs across a hole.
            let limit = Swift.min(buffer.count, holes.next?.at ?? buffer.count)
            guard let lineEnd = buffer.slice(0..<limit).firstIndex(of: "\r\n", from: offset) else {
                walk.lost = limit < buffer.count
                walk.end = walk.lost ? limit : buffer.count
                return walk
            }
            let sizeText = buffer.slice(offset..<lineEnd).string
            let hex = sizeText.split(separator: ";", maxSplits: 1).first.map { String($0).trimmingSpaces } ?? ""
            guard let size = Int(hex, radix: 16), size >= 0 else {
                walk.end = offset
                return walk
            }
            let dataStart = lineEnd + 2
            if size == 0 {
                // Trailers end with an empty line.
                if let trailerEnd = buffer.slice(0..<limit).firstIndex(of: "\r\n\r\n", from: lineEnd) {
                    walk.end = trailerEnd + 4
                    walk.complete = true
                    return walk
                }
                walk.lost = limit < buffer.count
                walk.end = walk.lost ? limit : buffer.count
                return walk
            }
            // The chunk's data and its CRLF, holes included.
            let framed = holes.end(from: dataStart, length: Int64(size) + 2, available: buffer.count)
            walk.missing += framed.missing
            guard framed.exact else {
                walk.lost = true
                walk.end = framed.end
                return walk
            }
            let dataEnd = Swift.max(dataStart, Swift.min(framed.end, buffer.count) - (framed.missing == 0 ? 2 : 0))
            if walk.missing == 0 {
                buffer.slice(dataStart..<dataEnd).append(to: &walk.body)
            }
            guard framed.end <= buffer.count, Int64(framed.end - dataStart) + framed.missing == Int64(size) + 2 else {
                walk.end = buffer.count
                return walk
            }
            offset = framed.end
        }
        walk.end = offset
        return walk
    }

    /// Where the header block starting at `from` ends (the offset of its last line's end) and the body starts.
    ///
    /// The first empty line: `CRLF CRLF`, or with bare line feeds (`LF LF`, `LF CRLF`), as HTTP/1.x allows.
    static func headerBlockEnd(_ buffer: BorrowedBytes, from: Int) -> (Int, Int)? {
        var i = Swift.max(0, from)
        while i < buffer.count, let feed = buffer.firstIndex(of: 0x0A, from: i) {
            let lineEnd = feed > from && buffer[feed - 1] == 0x0D ? feed - 1 : feed
            if feed + 1 < buffer.count, buffer[feed + 1] == 0x0A { return (lineEnd, feed + 2) }
            if feed + 2 < buffer.count, buffer[feed + 1] == 0x0D, buffer[feed + 2] == 0x0A {
                return (lineEnd, feed + 3)
            }
            i = feed + 1
        }
        return nil
    }
}
