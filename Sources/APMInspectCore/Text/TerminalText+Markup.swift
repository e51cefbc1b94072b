extension TerminalText {
    /// `text` on one line for a markup language; HTML and Markdown escaping differ only in their table.
    ///
    /// Controls are escaped as for a terminal first, then each scalar that `replacement` gives text for is written
    /// as that text.
    ///
    /// `replacement` answers only for ASCII scalars (every character markup reserves is one), so a line without a
    /// reserved byte is returned as it is, without a copy.
    @usableFromInline
    package static func escapedLine(_ text: String, replacing replacement: (Unicode.Scalar) -> String?) -> String {
        let line = escaped(text)
        guard line.utf8.contains(where: { $0 < 0x80 && replacement(Unicode.Scalar($0)) != nil }) else { return line }
        var out = ""
        out.reserveCapacity(line.utf8.count + 16)
        for scalar in line.unicodeScalars {
            if let replaced = replacement(scalar) {
                out += replaced
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
