/// Makes text from a file safe to show on a terminal.
///
/// File names, messages quoting a file's content and the content itself are the file author's: an `ESC [2J`
/// in any of them would clear the screen, a CR or LF would forge a `path:line:col` line of its own. Every byte
/// that is not printable text is shown as an escape instead (`\x1b`, `\n`, `\u{85}`), so what reaches the
/// terminal is only ever characters. JSON output does not go through here: its encoder escapes for JSON.
@usableFromInline
package enum TerminalText {
    /// `text` with every control character escaped: C0 (line breaks too), DEL, C1, and the bidirectional
    /// overrides and line separators that reorder or break what a terminal shows.
    @usableFromInline
    package static func escaped(_ text: String) -> String {
        escaped(text, keepingLineBreaks: false)
    }

    /// `text` as a multi-line view: line feeds and tabs kept (the renderer's layout), every other control escaped.
    @usableFromInline
    package static func escapedKeepingLayout(_ text: String) -> String {
        escaped(text, keepingLineBreaks: true)
    }

    /// Raw bytes as text: valid UTF-8 as characters, each byte of an invalid sequence as `\xNN`, controls
    /// escaped as in ``escaped(_:)``.
    @usableFromInline
    package static func escaped(bytes: some Collection<UInt8>) -> String {
        var out = ""
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            let length = sequenceLength(rest)
            guard length > 0, let scalar = scalar(of: rest.prefix(length)) else {
                if let byte = rest.first { out += "\\x" + hex(byte) }
                rest = rest.dropFirst()
                continue
            }
            append(scalar, to: &out, keepingLineBreaks: false)
            rest = rest.dropFirst(length)
        }
        return out
    }

    /// The scalar of one valid UTF-8 sequence.
    private static func scalar(of sequence: ArraySlice<UInt8>) -> Unicode.Scalar? {
        var decoder = UTF8()
        var iterator = sequence.makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }

    private static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
        // Most text needs nothing: check before building a copy.
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineBreaks: keepingLineBreaks) }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars { append(scalar, to: &out, keepingLineBreaks: keepingLineBreaks) }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        let value = scalar.value
        if value < 0x20 { return !(keepingLineBreaks && (value == 0x0A || value == 0x09)) }
        if value < 0x7F { return false }
        return value <= 0x9F || (0x2028...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            || value == 0x200E || value == 0x200F || value == 0x061C
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String, keepingLineBreaks: Bool) {
        guard needsEscape(scalar, keepingLineBreaks: keepingLineBreaks) else {
            out.unicodeScalars.append(scalar)
            return
        }
        switch scalar.value {
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0..<0x80: out += "\\x" + hex(UInt8(truncatingIfNeeded: scalar.value))
        default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }

    /// The length of the valid UTF-8 sequence at the start of `bytes`, 0 when it is not one.
    private static func sequenceLength(_ bytes: ArraySlice<UInt8>) -> Int {
        UTF8Sequence.length(at: bytes.startIndex, in: bytes)
    }

    private static func hex(_ byte: UInt8) -> String {
        (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
    }
}
