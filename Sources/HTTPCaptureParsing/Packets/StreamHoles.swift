import ByteAccess

/// The holes of one reassembled stream, walked forward while its messages are parsed.
///
/// Framing (Content-Length, chunk sizes) counts bytes on the wire, holes included; the captured bytes skip the
/// holes. This converts one into the other so a message that crosses a hole still ends where its sender ended it.
/// The cursor only moves forward, so a whole stream costs one pass over its holes.
struct StreamHoles {
    let gaps: [TCPStream.Gap]
    /// Holes before this index are already accounted for by a message's framing or a resynchronisation.
    private(set) var cursor = 0

    init(_ gaps: [TCPStream.Gap]) { self.gaps = gaps }

    var isEmpty: Bool { gaps.isEmpty }

    /// The next hole not yet accounted for.
    var next: TCPStream.Gap? { gaps.indices.contains(cursor) ? gaps[cursor] : nil }

    /// Accounts for every hole at or before `offset`; returns how many bytes they miss (0: there was none).
    mutating func pass(upTo offset: Int) -> Int64 {
        var missing: Int64 = 0
        while let gap = next, gap.at <= offset {
            missing += Swift.max(1, gap.length)
            cursor += 1
        }
        return missing
    }

    /// Where `length` bytes on the wire that start at captured offset `start` end in the captured bytes.
    ///
    /// - Returns: the end offset, how many of those bytes were never captured, and whether the end is exact (false
    ///   when it falls inside a hole: the next message then starts somewhere in bytes that are missing).
    mutating func end(from start: Int, length: Int64, available: Int) -> (end: Int, missing: Int64, exact: Bool) {
        var position = start
        var remaining = Swift.max(0, length)
        var missing: Int64 = 0
        while let gap = next, gap.at >= position {
            let before = Int64(gap.at - position)
            if remaining <= before { break }
            remaining -= before
            position = gap.at
            cursor += 1
            if remaining < gap.length {
                return (Swift.min(position, available), missing + remaining, false)
            }
            remaining -= gap.length
            missing += gap.length
        }
        let room = Int64(Swift.max(0, available - position))
        return (Swift.min(available, position + Int(Swift.min(remaining, room))), missing, true)
    }

    /// The first plausible message start at or after `from`.
    ///
    /// `HTTP/1.x NNN ` for responses, `METHOD target HTTP/1.x` and a line end for requests (any token as `METHOD`). The previous message's
    /// body may run straight into it, so it is looked for anywhere, not only at line starts.
    ///
    /// Each occurrence of `HTTP/1.` is checked once, and a request's check walks back only over its target and
    /// method (to the space before the target), so resynchronising costs time linear in the bytes searched.
    static func nextMessageStart(_ buffer: BorrowedBytes, from: Int, isResponse: Bool) -> Int? {
        var position = Swift.max(0, from)
        while let hit = buffer.firstIndex(of: "HTTP/1.", from: position) {
            if isResponse {
                if looksLikeStatusLine(buffer, at: hit) { return hit }
            } else if let start = requestLineStart(buffer, versionAt: hit, notBefore: from) {
                return start
            }
            position = hit + 1
        }
        return nil
    }

    private static func looksLikeStatusLine(_ buffer: BorrowedBytes, at start: Int) -> Bool {
        let rest = start + 7
        guard rest + 5 <= buffer.count else { return false }
        func digit(_ i: Int) -> Bool { buffer[i].map { (0x30...0x39).contains($0) } ?? false }
        return digit(rest) && buffer[rest + 1] == 0x20 && digit(rest + 2) && digit(rest + 3) && digit(rest + 4)
    }

    /// Where the request line whose `HTTP/1.` is at `versionAt` starts, when it is one.
    private static func requestLineStart(_ buffer: BorrowedBytes, versionAt: Int, notBefore: Int)
        -> Int?
    {
        // `HTTP/1.x` then the line end.
        let digitAt = versionAt + 7
        guard digitAt + 1 < buffer.count, let digit = buffer[digitAt], (0x30...0x39).contains(digit),
            buffer[digitAt + 1] == 0x0D || buffer[digitAt + 1] == 0x0A
        else { return nil }
        // ` target` before it: no spaces or line ends inside.
        var i = versionAt - 1
        guard i > notBefore, buffer[i] == 0x20 else { return nil }
        i -= 1
        let targetEnd = i
        while i >= notBefore, versionAt - i <= 8192, buffer[i] != 0x20, buffer[i] != 0x0A, buffer[i] != 0x0D {
            i -= 1
        }
        guard i < targetEnd, i >= notBefore, buffer[i] == 0x20 else { return nil }
        // `METHOD` before that: a token (RFC 9110 §9.1) of up to 20 characters.
        var start = i
        while start - 1 >= notBefore, i - (start - 1) <= HTTPSyntax.maxMethodLength,
            let byte = buffer[start - 1], HTTPSyntax.isTokenByte(byte)
        {
            start -= 1
        }
        guard start < i else { return nil }
        // After a byte that is no token's (a line feed, a JSON body's `}`) the whole token is the method
        // (`PROPFIND`, `CCM_POST`).
        if start == 0 || start > notBefore && !(buffer[start - 1].map(HTTPSyntax.isTokenByte) ?? false) { return start }
        // A body whose last characters are a token's runs into the method: prefer a method of RFC 9110 at the end
        // of the run, else the run of capitals, digits, dashes and underscores at its end, else nothing.
        let run = buffer.slice(start..<i).string
        for method in HTTPSyntax.standardMethods where run.hasSuffix(method) { return i - method.utf8.count }
        var capitals = i
        while capitals > start, let byte = buffer[capitals - 1], isMethodCapital(byte) { capitals -= 1 }
        return capitals < i ? capitals : nil
    }

    private static func isMethodCapital(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x2D || byte == 0x5F
    }
}
