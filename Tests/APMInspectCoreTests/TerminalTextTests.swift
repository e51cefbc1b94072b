import APMInspectCore
import Testing

/// File names and report text reach the terminal escaped: no byte of theirs can move the cursor, clear the
/// screen, set the title or start a line of its own.
@Suite struct TerminalTextTests {
    @Test func controlsAreShownNotObeyed() {
        #expect(TerminalText.escaped("evil\u{1B}[2J.ips") == #"evil\x1b[2J.ips"#)
        #expect(
            TerminalText.escaped("a.ips\nfake.ips:1:1: error: forged") == #"a.ips\nfake.ips:1:1: error: forged"#
        )
        #expect(TerminalText.escaped("cr\rtab\tnul\u{0}del\u{7F}") == #"cr\rtab\tnul\x00del\x7f"#)
        #expect(TerminalText.escaped("\u{1B}]0;title\u{7}") == #"\x1b]0;title\x07"#)
        // C1 controls (CSI as one code point) and the bidirectional overrides that reorder what is shown.
        #expect(TerminalText.escaped("c1\u{9B}2J") == #"c1\u{9b}2J"#)
        #expect(TerminalText.escaped("file\u{202E}spi.exe") == #"file\u{202e}spi.exe"#)
        #expect(TerminalText.escaped("line\u{2028}sep") == #"line\u{2028}sep"#)
    }

    @Test func printableTextIsUnchanged() {
        for text in ["", "plain.ips", "München/报告 😀.crash", #"C:\path\x1b literal"#, "0x8badf00d \"ate bad food\""] {
            #expect(TerminalText.escaped(text) == text)
            #expect(TerminalText.escapedKeepingLayout(text) == text)
        }
    }

    @Test func layoutKeepsLineBreaksAndTabsOnly() {
        #expect(TerminalText.escapedKeepingLayout("a\tb\nc\u{1B}[31md\re") == "a\tb\nc\\x1b[31md\\re")
    }

    @Test func escapedTextIsAFixedPoint() {
        let hostile = "x\u{1B}[2J\n\u{9B}\u{202E}\u{7F}y"
        let once = TerminalText.escaped(hostile)
        #expect(TerminalText.escaped(once) == once)
        #expect(!once.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func invalidUTF8BytesAreShownByValue() {
        let bytes: [UInt8] = [0x61, 0xFF, 0x1B, 0x5B, 0xC3, 0xA9, 0xE2, 0x82, 0x0A, 0xF0, 0x9F, 0x98, 0x80]
        #expect(TerminalText.escaped(bytes: bytes) == #"a\xff\x1b[é\xe2\x82\n😀"#)
        // Overlong and surrogate encodings are invalid, not characters.
        #expect(TerminalText.escaped(bytes: [0xC0, 0xAF, 0xED, 0xA0, 0x80]) == #"\xc0\xaf\xed\xa0\x80"#)
    }
}
