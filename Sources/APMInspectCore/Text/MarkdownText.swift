/// Makes text from a file safe to put in a Markdown document: one table cell, one list item or one heading.
///
/// A device or process name is the file author's: a `|` would split its table cell, a line break would end the
/// row (and start a forged one), `<script>` would reach a renderer that passes raw HTML through, `*` or `[` would
/// turn into emphasis or a link. Controls are first shown as escapes (as for a terminal), so the text is one
/// line; Markdown's own characters are then backslash-escaped, and `<`, `>`, `&` written as character
/// references, which every Markdown flavour (CommonMark, GitHub's tables, the original Markdown.pl) shows as the
/// character and none reads as markup.
@usableFromInline
package enum MarkdownText {
    /// `text` as literal Markdown text on one line: what a renderer shows is `text` with controls escaped.
    @usableFromInline
    package static func escaped(_ text: String) -> String {
        TerminalText.escapedLine(text) { scalar in
            switch scalar {
            case "<": "&lt;"
            case ">": "&gt;"
            case "&": "&amp;"
            case "\\", "`", "*", "_", "[", "]", "|", "#", "!", "~": "\\" + String(scalar)
            default: nil
            }
        }
    }
}
