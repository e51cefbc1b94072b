import APMInspectCore
import Testing

@testable import apm_inspect

/// Colour on standard error: only the severity word, added after escaping, so input cannot forge it.
@Suite struct ErrorColorTests {
    @Test func theSeverityWordIsColouredAfterTheLocation() {
        let line = "Corpus/a.ips:3:7: error: unexpected end of input"
        #expect(ErrorColor.colored(line) == "Corpus/a.ips:3:7: \u{1B}[1;31merror\u{1B}[0m: unexpected end of input")
        #expect(ErrorColor.colored("x.crash: warning: 2 frames") == "x.crash: \u{1B}[1;33mwarning\u{1B}[0m: 2 frames")
        #expect(ErrorColor.colored("--dsym: note: no UUID") == "--dsym: \u{1B}[1;36mnote\u{1B}[0m: no UUID")
        #expect(ErrorColor.colored("error: cannot write") == "\u{1B}[1;31merror\u{1B}[0m: cannot write")
    }

    @Test func anEscapedLineKeepsItsForgedEscapesVisible() {
        // A file name carrying ESC [ 3 1 m is escaped before colouring: the colour added is ours alone.
        let escaped = TerminalText.escaped("evil\u{1B}[31m.ips: error: bad")
        let colored = ErrorColor.colored(escaped)
        #expect(colored.filter { $0 == "\u{1B}" }.count == 2)
        #expect(colored.hasPrefix("evil\\x1b[31m.ips: \u{1B}[1;31merror"))
    }

    @Test func lineWithoutASeverityIsUnchanged() {
        #expect(ErrorColor.colored("plain progress text") == "plain progress text")
    }

    @Test func theChoiceFollowsColorAndNoColor() {
        #expect(ColorChoice.auto.isEnabled(outputIsTerminal: true, noColor: nil))
        #expect(!ColorChoice.auto.isEnabled(outputIsTerminal: true, noColor: "1"))
        #expect(!ColorChoice.auto.isEnabled(outputIsTerminal: false, noColor: nil))
        #expect(ColorChoice.always.isEnabled(outputIsTerminal: false, noColor: "1"))
        #expect(!ColorChoice.never.isEnabled(outputIsTerminal: true, noColor: nil))
    }
}
