/// A model's sampled call stacks in the folded format flame-graph tools read (`flamegraph.pl`, speedscope,
/// inferno), with what the reader should be told about them, in the order it happened.
///
/// A value, not output: the caller writes the stacks to standard output and the notes to standard error, so a
/// library family never prints.
package struct FoldedStacks: Sendable, Equatable {
    /// One piece of the result: folded lines for standard output, or a finding about the stacks.
    package enum Entry: Sendable, Equatable {
        /// Folded lines, each ending in a line break.
        case stacks(String)
        /// A note or warning (`severity` as ``ErrorLine`` writes it) about the input's stacks.
        case finding(severity: String, message: String)
    }

    package private(set) var entries: [Entry] = []

    package init() {}

    /// Folded lines, each put under the root frame `root` (a name that tells one sampled tree from another).
    mutating func append(lines: [String], under root: String) {
        entries.append(.stacks(lines.map { root + ";" + $0 + "\n" }.joined()))
    }

    /// Folded lines that carry their own root frame.
    mutating func append(lines: [String]) {
        entries.append(.stacks(lines.map { $0 + "\n" }.joined()))
    }

    /// The folded lines, without the findings.
    package var text: String {
        entries.map { entry in
            if case .stacks(let text) = entry { return text }
            return ""
        }.joined()
    }

    mutating func note(_ message: String) {
        entries.append(.finding(severity: "note", message: message))
    }

    mutating func warn(_ message: String) {
        entries.append(.finding(severity: "warning", message: message))
    }
}
