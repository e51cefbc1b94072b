import APMInspectCore

/// Makes text from inputs and from a crashed worker safe to print: control and bidirectional characters become
/// `\u{…}` escapes, so a hostile input cannot drive the terminal.
extension TerminalText {
    static func safe(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let control = v < 0x20 || (v >= 0x7F && v <= 0x9F)
            let bidi = (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069) || v == 0x200E || v == 0x200F
            if control || bidi {
                out += "\\u{" + String(v, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
