/// Makes text from a file safe to put in an HTML (or SVG) page, in element content and in quoted attributes.
///
/// Crash reports' strings (process names, frames, paths) are attacker-controlled: `<` would open an element, a
/// quote would end an attribute and start an event handler of its own, `&` would start a character reference.
/// Controls are first shown as escapes (as for a terminal), so no raw control reaches the page (XML forbids most
/// of them) and a line break in a name stays visible; then `&`, `<`, `>`, `"` and `'` become character
/// references. Escaped text never holds `<`, so it cannot end a `<script>` or `<style>` block either.
@usableFromInline
package enum HTMLText {
    /// `text` for element content or a single- or double-quoted attribute value.
    @usableFromInline
    package static func escaped(_ text: String) -> String {
        TerminalText.escapedLine(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            default: nil
            }
        }
    }
}
