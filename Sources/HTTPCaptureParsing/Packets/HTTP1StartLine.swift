import ByteAccess

/// The pieces of an HTTP/1.x start line (`GET /x HTTP/1.1`, `HTTP/1.1 200 OK`), split once when the message is read.
///
/// Splitting the line by `Character` in each of the accessors cost about 10,000 instructions a call, a third of a
/// pcap summary. On ASCII without CR the bytes give the same pieces (a space is a `Character` of its own there), so
/// the line is split on its bytes and only other lines take the `Character` reading (``init(byCharacters:)``), which
/// is also the reference the byte split is held to.
struct HTTP1StartLine: Equatable {
    /// The first word (`GET`; `HTTP/1.1` for a response).
    var method = ""
    /// The second word (the request target; the status for a response), or empty: a request line of two words whose
    /// second is the version (`GET HTTP/1.1`) has no target.
    var target = ""
    /// The status code when the line is a response's (`HTTP/…` first, in any letter case: `http/1.1 200 ok`).
    var status: Int?
    /// The `HTTP/…` word as written, first (any letter case) or last (`HTTP/` in upper case), or empty.
    var version = ""
    /// What follows the status and the space after it (the reason phrase, as written), or empty.
    var reason = ""

    init(_ line: String) {
        let split = line.utf8.withBorrowedBytesIfAvailable { Self.asciiSplit($0) } ?? nil
        self = split ?? Self(byCharacters: line)
    }

    /// The pieces as the `Character` splits give them.
    init(byCharacters line: String) {
        let words = line.split(separator: " ")
        method = words.first.map(String.init) ?? ""
        target = words.count > 1 ? String(words[1]) : ""
        let parts = line.split(separator: " ", maxSplits: 2)
        if parts.count >= 2, HTTPSyntax.startsWithHTTPName(parts[0]) { status = Int(parts[1]) }
        if let first = words.first, HTTPSyntax.startsWithHTTPName(first) {
            version = String(first)
        } else if let last = words.last, last.hasPrefix("HTTP/") {
            version = String(last)
            if words.count == 2 { target = "" }
        }
        reason = parts.dropFirst(2).first.map(String.init) ?? ""
    }

    private init() {}

    /// The pieces from the bytes of a line that is ASCII without CR; nil for any other line.
    private static func asciiSplit(_ bytes: BorrowedBytes) -> HTTP1StartLine? {
        var words: [Range<Int>] = []
        var start = -1
        for (k, byte) in bytes.enumerated() {
            if byte >= 0x80 || byte == UInt8(ascii: "\r") { return nil }
            if byte == UInt8(ascii: " ") {
                if start >= 0 { words.append(start..<k) }
                start = -1
            } else if start < 0 {
                start = k
            }
        }
        if start >= 0 { words.append(start..<bytes.count) }
        func text(_ range: Range<Int>) -> String {
            bytes.slice(range).string
        }
        var line = HTTP1StartLine()
        guard let first = words.first else { return line }
        line.method = text(first)
        let response = HTTPSyntax.startsWithHTTPName(bytes.slice(first))
        if words.count > 1 {
            let second = words[1]
            line.target = text(second)
            if response { line.status = Int(line.target) }
            // The third piece of a split in three: everything after the space that ends the second word.
            if second.upperBound + 1 < bytes.count { line.reason = text((second.upperBound + 1)..<bytes.count) }
        }
        if response {
            line.version = line.method
        } else if let last = words.last, bytes.slice(last).hasPrefix("HTTP/") {
            line.version = text(last)
            if words.count == 2 { line.target = "" }
        }
        return line
    }
}
