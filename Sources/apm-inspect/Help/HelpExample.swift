/// One command line of a command's EXAMPLES section, with what it shows.
///
/// The examples are data rather than help prose so that `HelpExamplesTests` can run every one of them from the
/// repository root against the bundled Corpus and fixtures: an example that stops working fails the tests
/// instead of misleading the reader. Arguments hold no spaces or quotes; a `*` is a shell glob, there to keep long
/// Corpus names short enough that the help's 80-column wrapping leaves each line whole.
struct HelpExample: Sendable {
    /// What the example shows, as a short phrase.
    let what: String
    /// The arguments after `apm-inspect`, globs unexpanded.
    let arguments: [String]

    init(_ what: String, _ arguments: String) {
        self.what = what
        self.arguments = arguments.split(separator: " ").map(String.init)
    }

    /// The command on one line, globs unexpanded.
    var commandLine: String { (["apm-inspect"] + arguments).joined(separator: " ") }

    /// Lines of at most this many columns (indent included) fit the help's wrapping width of 80.
    static let lineWidth = 76

    /// The command as a user types it: one line, or lines continued with ` \` when it does not fit.
    var shellLines: [String] {
        var lines: [String] = []
        var line = "apm-inspect"
        for argument in arguments {
            // 4 columns of indent, 2 more on continued lines, 2 for the ` \`.
            let indent = lines.isEmpty ? 4 : 6
            if indent + line.count + 1 + argument.count + 2 > Self.lineWidth {
                lines.append(line + " \\")
                line = argument
            } else {
                line += " " + argument
            }
        }
        return lines + [line]
    }

    /// The EXAMPLES section appended to a command's discussion: each example's phrase, then its lines, indented.
    static func section(_ examples: [HelpExample]) -> String {
        guard !examples.isEmpty else { return "" }
        let body = examples.map { example in
            let lines = example.shellLines.enumerated().map { index, line in (index == 0 ? "    " : "      ") + line }
            return "  \(example.what):\n" + lines.joined(separator: "\n")
        }
        return "\n\nEXAMPLES (from a clone of the repository, on its bundled files):\n" + body.joined(separator: "\n")
    }
}
