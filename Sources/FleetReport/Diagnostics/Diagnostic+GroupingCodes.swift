import APMInspectCore

// The codes of `report --grouping RULES`: why a rules file (Sentry's fingerprint-rule syntax) was refused. Each doc
// comment says what the code means and ends with an `Example:` line; Scripts/generate-diagnostics-doc.py turns them
// into docs/diagnostics.md.
extension Diagnostic.Code {
    /// A line of the rules file is not a comment, a blank line or a rule (`matcher:value ... -> fingerprint`), or
    /// the file is not UTF-8; the report is not made.
    /// Example: expected -> and a fingerprint after the matchers
    package static let groupingSyntax = Self("grouping.syntax")
    /// A rule names a matcher the fleet report does not know (Sentry's `stack.function`, `stack.module`,
    /// `stack.package`, `stack.abs_path`, `error.type`, `error.value`, `message`, `app` and their short forms are
    /// known).
    /// Example: unknown matcher 'stack.fuction' (known: stack.function, function, stack.module, …)
    package static let groupingUnknownMatcher = Self("grouping.unknown-matcher")
    /// A fingerprint or title names a variable the fleet report cannot fill (`{{ default }}`, `{{ function }}`,
    /// `{{ module }}`, `{{ package }}`, `{{ type }}`, `{{ value }}`, `{{ message }}` and their long forms are known).
    /// Example: unknown variable '{{ transaction }}' (known: default, function, module, package, type, value, …)
    package static let groupingUnknownVariable = Self("grouping.unknown-variable")
    /// A rule gives an attribute other than `title="…"` after its fingerprint.
    /// Example: unknown attribute 'level' (only title="…" is known)
    package static let groupingUnknownAttribute = Self("grouping.unknown-attribute")
    /// A matcher's glob cannot be compiled: a `[` without its `]`, a backwards range, a trailing `\`.
    /// Example: bad pattern: the [ has no closing ]
    package static let groupingBadPattern = Self("grouping.bad-pattern")
    /// The rules file passes a bound the reader keeps for hostile input: its size, its number of rules, a line's
    /// length, a pattern's length, a rule's matchers or fingerprint values.
    /// Example: the rules file holds more than 1000 rules
    package static let groupingLimit = Self("grouping.limit")
}
