import ByteAccess

/// The start line and header fields of one HTTP/1.x header block, read from its bytes.
///
/// Decoding the whole block to a `String`, splitting it into a `String` per line and then cutting each line by
/// `Character` was 127 M of the 442 M instructions of a 10 MB pcap. A line that is ASCII is cut on its bytes (there
/// every byte is a `Character` of its own: the only two-scalar ASCII grapheme, CR LF, cannot occur inside a line),
/// and only the name and value kept in the model become strings. Any other line takes the `Character` reading
/// (``appendByCharacters(_:to:)``), which is the reference the byte reading is held to.
enum HTTP1HeaderBlock {
    /// The block's first line (without its line end) and its header fields, obs-fold continuations joined to the
    /// field before them with one space.
    ///
    /// - Parameter block: The bytes from the start line up to the end of the last header line (its CR LF or LF
    ///   excluded); lines end at LF, with an optional CR before it.
    /// - Returns: The start line as text, and the fields in the order written.
    static func parse(_ block: BorrowedBytes) -> (startLine: String, headers: [HTTPTransaction.Header]) {
        var headers: [HTTPTransaction.Header] = []
        var startLine = ""
        var lineStart = 0
        var first = true
        while lineStart <= block.count {
            let feed = block.firstIndex(of: 0x0A, from: lineStart) ?? block.count
            var lineEnd = feed
            if lineEnd > lineStart, block[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let line = block.slice(lineStart..<lineEnd)
            if first {
                startLine = line.string
                first = false
            } else if !appendASCII(line, to: &headers) {
                appendByCharacters(line.string, to: &headers)
            }
            lineStart = feed + 1
        }
        return (startLine, headers)
    }

    /// Reads one header line that is ASCII into `headers`; false (and nothing added) for a line with any other
    /// byte.
    static func appendASCII(_ line: BorrowedBytes, to headers: inout [HTTPTransaction.Header]) -> Bool {
        var colon = -1
        for (k, byte) in line.enumerated() {
            if byte >= 0x80 { return false }
            if byte == UInt8(ascii: ":"), colon < 0 { colon = k }
        }
        if let lead = line.first, lead == UInt8(ascii: " ") || lead == UInt8(ascii: "\t"), !headers.isEmpty {
            // obs-fold (RFC 9112 §5.2): the line continues the field before it.
            let piece = trimmed(line)
            headers[headers.count - 1].value += " " + piece.string
            return true
        }
        guard colon >= 0 else { return true }
        headers.append(
            HTTPTransaction.Header(
                name: trimmed(line.slice(0..<colon)).string,
                value: trimmed(line.slice(from: colon + 1)).string
            )
        )
        return true
    }

    /// The bytes without leading and trailing spaces, tabs, CRs and LFs (what `String.trimmingSpaces` drops).
    private static func trimmed(_ bytes: BorrowedBytes) -> BorrowedBytes {
        func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\n")
        }
        var lower = 0
        var upper = bytes.count
        while lower < upper, let byte = bytes[lower], isSpace(byte) { lower += 1 }
        while upper > lower, let byte = bytes[upper - 1], isSpace(byte) { upper -= 1 }
        return bytes.slice(lower..<upper)
    }

    /// Reads one header line by `Character` into `headers`: a line starting with a space or a tab continues the
    /// field before it (obs-fold), a line without a colon is passed over.
    static func appendByCharacters(_ line: String, to headers: inout [HTTPTransaction.Header]) {
        if let first = line.first, first == " " || first == "\t", !headers.isEmpty {
            headers[headers.count - 1].value += " " + line.trimmingSpaces
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        headers.append(
            HTTPTransaction.Header(
                name: String(line[..<colon]).trimmingSpaces,
                value: String(line[line.index(after: colon)...]).trimmingSpaces
            )
        )
    }
}
