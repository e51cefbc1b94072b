import APMInspectCore

/// Joins JSON strings that a Markdown code block or a mail client wrapped over two lines (a long `kernel` string,
/// say), as ``IPSContainer`` joins a wrapped header line.
///
/// A JSON string cannot hold a raw line break, so a line that ends inside a string, followed by a line whose first
/// quote closes it (only `,`, `}` or `]` after that quote), is one value broken in two: the break stands for the
/// space the wrap replaced. The rewrite keeps every byte offset and, where the next line has indentation to spare,
/// every line number: diagnostics still point at the bytes of the file as written.
enum WrappedStringJoiner {
    /// The body with its wrapped strings joined, and the byte offset (in the body) of each string joined.
    static func join(_ body: [UInt8]) -> (body: [UInt8], joined: [Int])? {
        var out = body
        var joined: [Int] = []
        // Only a body the JSON reader found an unterminated string in comes here: the array's own checked
        // subscripts cost nothing that matters.
        var lineStart = 0
        while lineStart < out.count, joined.count < maxJoins {
            guard let (lineEnd, open) = openStringAtEnd(out, from: lineStart) else {
                lineStart = nextLine(out, from: lineStart)
                continue
            }
            if let next = rejoin(&out, lineEnd: lineEnd) {
                joined.append(open)
                lineStart = next
            } else {
                lineStart = lineEnd + 1
            }
        }
        return joined.isEmpty ? nil : (out, joined)
    }

    /// More joins than this in one body is not a wrapped excerpt: the rest are left to the JSON reader's repairs.
    static let maxJoins = 64

    private static let quote = UInt8(ascii: "\"")
    private static let newline = UInt8(ascii: "\n")

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func nextLine(_ bytes: [UInt8], from start: Int) -> Int {
        var i = start
        while i < bytes.count, bytes[i] != newline { i += 1 }
        return i + 1
    }

    /// When the line starting at `start` ends inside a string (outside a `//` comment) and a line follows it: the
    /// offset of its line break and of the string's opening quote.
    private static func openStringAtEnd(
        _ bytes: [UInt8],
        from start: Int
    ) -> (Int, Int)? {
        var i = start
        var open: Int?
        while i < bytes.count, bytes[i] != newline {
            let byte = bytes[i]
            if open != nil {
                if byte == UInt8(ascii: "\\") {
                    i += 1
                } else if byte == quote {
                    open = nil
                }
            } else if byte == quote {
                open = i
            } else if byte == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                return nil
            }
            i += 1
        }
        guard let open, i < bytes.count else { return nil }
        return (i, open)
    }

    /// Rewrites the break at `lineEnd` when the next line closes the string; returns where scanning resumes.
    private static func rejoin(_ bytes: inout [UInt8], lineEnd: Int) -> Int? {
        let second = lineEnd + 1
        var indent = second
        while indent < bytes.count, isBlank(bytes[indent]) { indent += 1 }
        // The closing quote: the first unescaped one of the second line.
        var close = indent
        while close < bytes.count, bytes[close] != newline, bytes[close] != quote {
            if bytes[close] == UInt8(ascii: "\\") {
                guard close + 1 < bytes.count, bytes[close + 1] != newline else { return nil }
                close += 1
            }
            close += 1
        }
        guard close < bytes.count, bytes[close] == quote, close > indent else { return nil }
        var end = close + 1
        var tail: [UInt8] = []
        while end < bytes.count, bytes[end] != newline {
            if !isBlank(bytes[end]) { tail.append(bytes[end]) }
            end += 1
        }
        guard Self.closingTails.contains(tail) else { return nil }
        // `end` is the second line's break (or the end of the input). The content moves up behind a space.
        let content = Array(bytes[indent..<end])
        let spare = indent - second
        var p = lineEnd
        bytes[p] = UInt8(ascii: " ")
        p += 1
        for byte in content {
            bytes[p] = byte
            p += 1
        }
        // p == end - spare: the bytes left are the indentation's and the second line's break.
        let resume: Int
        if spare > 0 {
            bytes[p] = newline
            p += 1
            while p < end {
                bytes[p] = UInt8(ascii: " ")
                p += 1
            }
            resume = end
        } else if end < bytes.count, end + 1 < bytes.count, isBlank(bytes[end + 1]) {
            // No indentation to spare: the next line gives up one of its leading blanks for the line break.
            bytes[end] = newline
            bytes[end + 1] = newline
            resume = end + 1
        } else {
            resume = end
        }
        return resume
    }

    /// What may follow the closing quote of a wrapped value on its line.
    private static let closingTails: Set<[UInt8]> = Set(["", ",", "}", "},", "]", "],"].map { Array($0.utf8) })
}
