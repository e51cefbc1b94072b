import APMInspectCore
import FuzzReplaySupport
import Testing

/// A field from a file put in a Markdown table cell stays one cell of one row, shown as text.
@Suite struct MarkdownTextTests {
    @Test func aHostileFieldStaysOneCellOfOneRow() {
        let row = "| left | " + MarkdownText.escaped(MarkupStructure.hostileField) + " | right |"
        #expect(!row.contains("\n") && !row.contains("\r"))
        #expect(!MarkupStructure.hasRawControl(row))
        let cells = MarkupStructure.markdownCells(ofRow: row)
        #expect(cells.count == 3)
        #expect(cells.first == "left" && cells.last == "right")
        // No raw HTML: no `<` nor `>` at all, and the `&` of the input is a reference of its own.
        #expect(!row.contains("<") && !row.contains(">"))
        #expect(row.contains("&lt;script&gt;") && row.contains("&amp;amp;"))
        // Emphasis, links and code spans are shown, not obeyed.
        #expect(row.contains("\\*\\_\\[x\\](y)\\`"))
    }

    @Test func controlsAreEscapedAsForATerminalThenTheirBackslashesForMarkdown() {
        // `\n` from the terminal escaping, its backslash escaped so that Markdown shows it.
        #expect(MarkdownText.escaped("a\nb") == #"a\\nb"#)
        #expect(MarkdownText.escaped("\u{1B}[31m\r\u{0}") == #"\\x1b\[31m\\r\\x00"#)
        #expect(MarkdownText.escaped(#"C:\dir|x"#) == #"C:\\dir\|x"#)
    }

    @Test func plainTextIsUnchanged() {
        for text in ["", "iPhone14,2", "iPhone OS 17.2 (21C62)", "München 报告 😀", "1450 / 1449.5 / 1460 (n=3)"] {
            #expect(MarkdownText.escaped(text) == text)
        }
    }
}
