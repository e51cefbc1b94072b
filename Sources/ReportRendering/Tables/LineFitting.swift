/// Fits the lines of a text view that are not table rows (headings, `Key  value` lines, summaries, notes) in the
/// width of the tables (``TableWidth``), so that a whole view fits the terminal, not only its tables.
///
/// A long line is wrapped at spaces, its continuation lines indented two columns past the line's own indent so
/// they read as part of it; a word that alone is wider than a line (a URL, a path) is shortened in the middle, as
/// a table cell is. Lines are fitted after escaping, so an escape (`\x1b`) is never split, and the SGR codes of
/// `--color` take no columns and are never cut.
package enum LineFitting {
    /// `text` with every line at most `width` columns; as is when `width` is nil (`--wide`).
    package static func fitted(_ text: String, width: Int?) -> String {
        guard let width else { return text }
        // Most views fit: a line is only split when it is longer in bytes than the width could hold.
        var lineBytes = 0
        var longest = 0
        for byte in text.utf8 {
            lineBytes = byte == 0x0A ? 0 : lineBytes + 1
            longest = max(longest, lineBytes)
        }
        guard longest > width else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { fitted(line: $0, width: width) }
            .joined(separator: "\n")
    }

    private static func fitted(line: Substring, width: Int) -> String {
        guard line.utf8.count > width, TextTable.displayWidth(withoutSGR(line)) > width else { return String(line) }
        if line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return fitted(printableASCII: Array(line.utf8), width: width)
        }
        return fitted(characters: line, width: width)
    }

    /// The general case: wraps on `Character`s and measures display columns.
    static func fitted(characters line: Substring, width: Int) -> String {
        let indent = min(line.prefix(while: { $0 == " " }).count, width / 2)
        let hanging = String(repeating: " ", count: min(indent + 2, width / 2))
        var lines: [String] = []
        var current = String(repeating: " ", count: indent)
        var currentWidth = indent
        var startsLine = true
        let words = line.dropFirst(indent).split(separator: " ", omittingEmptySubsequences: false)
        for word in words {
            let wordWidth = TextTable.displayWidth(withoutSGR(word))
            let gap = startsLine ? 0 : 1
            if !startsLine, currentWidth + gap + wordWidth > width {
                lines.append(String(current.reversed().drop(while: { $0 == " " }).reversed()))
                current = hanging
                currentWidth = hanging.count
                startsLine = true
            }
            let room = width - currentWidth - (startsLine ? 0 : 1)
            let shown = wordWidth > room ? TextTable.shortened(String(word), toWidth: max(1, room)) : String(word)
            if !startsLine {
                current += " "
                currentWidth += 1
            }
            current += shown
            currentWidth += min(wordWidth, max(1, room))
            startsLine = false
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }

    /// The same wrapping as ``fitted(line:width:)`` for a line of printable ASCII, where a byte is a `Character` of
    /// one column: on bytes, without the `Character` splits and `String` appends that cost about 20,000
    /// instructions a wrapped line (`scan` wraps most of its summary lines).
    static func fitted(printableASCII bytes: [UInt8], width: Int) -> String {
        var leading = 0
        while leading < bytes.count, bytes[leading] == 0x20 { leading += 1 }
        let indent = min(leading, width / 2)
        let hanging = min(indent + 2, width / 2)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / max(width, 1) * (hanging + 1) + 16)
        var current = [UInt8](repeating: 0x20, count: indent)
        var currentWidth = indent
        var startsLine = true
        for word in bytes[indent...].split(separator: 0x20, omittingEmptySubsequences: false) {
            if !startsLine, currentWidth + 1 + word.count > width {
                var end = current.count
                while end > 0, current[end - 1] == 0x20 { end -= 1 }
                out += current[..<end]
                out.append(0x0A)
                current = [UInt8](repeating: 0x20, count: hanging)
                currentWidth = hanging
                startsLine = true
            }
            let room = width - currentWidth - (startsLine ? 0 : 1)
            if !startsLine {
                current.append(0x20)
                currentWidth += 1
            }
            if word.count > room {
                current += TextTable.shortened(String(decoding: word, as: UTF8.self), toWidth: max(1, room)).utf8
            } else {
                current += word
            }
            currentWidth += min(word.count, max(1, room))
            startsLine = false
        }
        out += current
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` without the SGR codes `--color` adds: they take no column.
    static func withoutSGR(_ text: Substring) -> String {
        guard text.utf8.contains(0x1B) else { return String(text) }
        var out = ""
        var rest = text
        while let escape = rest.firstIndex(of: "\u{1B}") {
            out += rest[..<escape]
            let after = rest[escape...].dropFirst()
            guard after.first == "[", let end = after.firstIndex(of: "m") else {
                rest = after
                continue
            }
            rest = after[after.index(after: end)...]
        }
        return out + rest
    }
}
