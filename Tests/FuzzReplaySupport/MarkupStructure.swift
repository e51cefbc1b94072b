/// What a Markdown or HTML reader sees of a rendered document's structure, for the tests that feed a renderer a
/// hostile field and check that no table cell, row, element or attribute came from it.
public enum MarkupStructure {
    /// A field holding each thing that breaks a naive renderer: a pipe, a line break that starts a forged table
    /// row, raw HTML (a script, the end of a style block, a comment), an attribute break-out, a terminal escape,
    /// a carriage return, a NUL and Markdown emphasis and link syntax.
    public static let hostileField =
        "a|b\n| forged | row |\n<script>alert(1)</script></style><!--\"' onmouseover=x \u{1B}[31m\r\u{0}*_[x](y)`&amp;"

    /// The cells of one GitHub-flavoured Markdown table row, `| a | b |` → `["a", "b"]`: split on the pipes that
    /// no backslash escapes, as GitHub and cmark-gfm split them.
    public static func markdownCells(ofRow row: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var escaped = false
        // True while nothing but spaces followed the last separating pipe.
        var endsOnSeparator = false
        for character in row {
            if character != " " { endsOnSeparator = false }
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                current.append(character)
                escaped = true
            } else if character == "|" {
                cells.append(current)
                current = ""
                endsOnSeparator = true
            } else {
                current.append(character)
            }
        }
        // The leading and trailing pipes bound the row: what lies outside them is no cell.
        if !endsOnSeparator { cells.append(current) }
        if row.hasPrefix("|"), !cells.isEmpty { cells.removeFirst() }
        return cells.map { $0.trimmingSpaces() }
    }

    /// The Markdown tables of `document`: runs of lines starting with `|`, each line's cells.
    public static func markdownTables(in document: String) -> [[[String]]] {
        var tables: [[[String]]] = []
        var current: [[String]] = []
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("|") {
                current.append(markdownCells(ofRow: String(line)))
            } else if !current.isEmpty {
                tables.append(current)
                current = []
            }
        }
        if !current.isEmpty { tables.append(current) }
        return tables
    }

    /// The names of the elements `html` opens (`<tr class=…>` → `tr`), lowercased, and whether any tag opens a
    /// comment or a declaration other than the doctype.
    public static func htmlElements(in html: String) -> (names: [String], comments: Int) {
        var names: [String] = []
        var comments = 0
        let scalars = Array(html.unicodeScalars)
        var index = 0
        while index < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "<", index + 1 < scalars.count else { continue }
            let next = scalars[index + 1]
            if next == "!" {
                let rest = String(String.UnicodeScalarView(scalars[(index + 2)...].prefix(7))).lowercased()
                if !rest.hasPrefix("doctype") { comments += 1 }
                continue
            }
            guard next.properties.isAlphabetic else { continue }
            var name = ""
            var k = index + 1
            while k < scalars.count, scalars[k].properties.isAlphabetic || ("0"..."9").contains(scalars[k]) {
                name.unicodeScalars.append(scalars[k])
                k += 1
            }
            names.append(name.lowercased())
        }
        return (names, comments)
    }

    /// True when `text` holds a C0 control other than a line feed or a tab, DEL or a C1 control.
    public static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            let value = scalar.value
            return (value < 0x20 && value != 0x0A && value != 0x09) || (0x7F...0x9F).contains(value)
        }
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { $0 != " " }),
            let last = characters.lastIndex(where: { $0 != " " })
        else { return "" }
        return String(characters[first...last])
    }
}
