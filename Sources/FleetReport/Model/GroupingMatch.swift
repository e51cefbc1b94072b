/// How a grouping rule named a crash's group: the fingerprint it gave, its title, and the rule.
package struct GroupingMatch: Sendable, Equatable, Hashable, Encodable {
    /// The rule as the report shows it: where it is in the rules file and what it says.
    package struct Rule: Sendable, Equatable, Hashable, Encodable {
        /// The line in the rules file (1-based).
        package var line: Int
        /// The rule as written.
        package var text: String

        package init(line: Int, text: String) {
            self.line = line
            self.text = text
        }
    }

    /// The fingerprint's values, variables filled (`{{ default }}` by the crash's signature).
    package var fingerprint: [String]
    /// `title="…"` with its variables filled, when the rule has one.
    package var title: String?
    package var rule: Rule

    package init(fingerprint: [String], title: String?, rule: Rule) {
        self.fingerprint = fingerprint
        self.title = title
        self.rule = rule
    }

    /// The signature a rule-made group is listed under: `fingerprint:` and the values joined by spaces, never
    /// mistaken for a default signature (sixteen hexadecimal digits).
    package var signature: String { "fingerprint:" + fingerprint.joined(separator: " ") }
}
