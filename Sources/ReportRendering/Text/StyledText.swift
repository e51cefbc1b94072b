import APMInspectCore

/// A text view with some spans marked for colour, so colour can be added after the report's text is escaped.
///
/// The view's text is the file author's (thread names, symbols, paths); an escape sequence in it must reach the
/// terminal as `\x1b`, never as colour. Each span is escaped on its own (``TerminalText``) and only then wrapped
/// in SGR codes this type writes, so no input can open, close or forge a colour. Without colour the spans are
/// joined and escaped exactly as the plain view always was.
package struct StyledText: Sendable, Equatable {
    /// What a span says, mapped to a colour only when it is written to a terminal.
    package enum Style: Sendable, Equatable {
        /// The heading of the thread that crashed (or that EXC_RESOURCE blames): bold red.
        case crashed
        /// An error line: red.
        case error
        /// A warning line: yellow.
        case warning

        /// The Select Graphic Rendition parameters: plain codes every terminal since the VT100 knows.
        package var sgr: String {
            switch self {
            case .crashed: "1;31"
            case .error: "31"
            case .warning: "33"
            }
        }
    }

    /// One run of text and its style (nil for plain).
    package struct Span: Sendable, Equatable {
        package var text: String
        package var style: Style?
    }

    private(set) var spans: [Span] = []

    package init(_ text: String = "") {
        if !text.isEmpty { spans = [Span(text: text, style: nil)] }
    }

    /// Appends `text`; plain text joins the plain span before it, so the common view stays one string.
    package mutating func append(_ text: String, style: Style? = nil) {
        guard !text.isEmpty else { return }
        if style == nil, let last = spans.indices.last, spans[last].style == nil {
            spans[last].text += text
        } else {
            spans.append(Span(text: text, style: style))
        }
    }

    package mutating func append(_ other: StyledText) {
        for span in other.spans { append(span.text, style: span.style) }
    }

    /// The view without colour, as the text view has always been built (not yet escaped).
    package var plain: String { spans.map(\.text).joined() }

    /// The view for standard output: every span escaped keeping the layout's line breaks, styled spans wrapped
    /// in SGR codes when `color` is true.
    package func terminalText(color: Bool) -> String {
        var out = ""
        for span in spans {
            let text = TerminalText.escapedKeepingLayout(span.text)
            if color, let style = span.style {
                out += "\u{1B}[\(style.sgr)m" + text + "\u{1B}[0m"
            } else {
                out += text
            }
        }
        return out
    }

    package static func += (lhs: inout StyledText, rhs: String) { lhs.append(rhs) }

    package static func += (lhs: inout StyledText, rhs: StyledText) { lhs.append(rhs) }

    package static func + (lhs: String, rhs: StyledText) -> StyledText {
        var out = StyledText(lhs)
        out.append(rhs)
        return out
    }
}
