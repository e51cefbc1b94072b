import APMInspectCore

/// The rules of `report --grouping RULES`: Sentry's fingerprint-rule syntax, read from a file the user gives.
///
/// ```
/// # comments
/// stack.function:"ThumbnailCache.entry*" -> cache-crashes
/// stack.module:"libswiftCore.dylib" error.type:"EXC_BREAKPOINT" -> swift-runtime-traps title="Swift trap in {{ function }}"
/// error.value:"*index out of range*" -> {{ default }} oob
/// ```
///
/// The first rule that holds for a crash names its group; a crash no rule holds for keeps its signature's group.
/// The file is hostile input: its size, rules, lines and patterns are bounded (``Limits``), and every glob matches
/// in time bounded by the text's length times the pattern's (`GlobPattern`).
package struct GroupingRules: Sendable, Equatable {
    /// The bounds a rules file must keep.
    package struct Limits: Sendable, Equatable {
        package var maxBytes = 1 << 20
        package var maxRules = 1_000
        package var maxLineLength = 16_384
        /// Characters of one matcher's pattern, of one fingerprint value, and of a title.
        package var maxPatternLength = 1_024
        package var maxMatchersPerRule = 32
        package var maxFingerprintValues = 32

        package init() {}
    }

    package var rules: [GroupingRule]

    package init(rules: [GroupingRule]) {
        self.rules = rules
    }

    /// Reads a rules file's bytes; any error refuses the whole file.
    ///
    /// - Throws: ``GroupingRulesError`` with the line and column of the first problem.
    package static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(GroupingRulesError) -> GroupingRules {
        guard bytes.count <= limits.maxBytes else {
            throw GroupingRulesError(
                .groupingLimit,
                "the rules file is larger than \(limits.maxBytes) bytes",
                line: 1,
                column: 1
            )
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else {
            let valid = String(decoding: body, as: UTF8.self)
            let line = valid.prefix { $0 != "\u{FFFD}" }.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            throw GroupingRulesError(.groupingSyntax, "the rules file is not UTF-8", line: line, column: 1)
        }
        var rules: [GroupingRule] = []
        var number = 0
        // Split on scalars: `\r\n` is one Character, which a split on the Character `\n` would not cut.
        for line in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var scalars = Array(line)
            if scalars.last == "\r" { scalars.removeLast() }
            guard scalars.count <= limits.maxLineLength else {
                throw GroupingRulesError(
                    .groupingLimit,
                    "the line is longer than \(limits.maxLineLength) characters",
                    line: number,
                    column: limits.maxLineLength + 1
                )
            }
            var parser = GroupingRuleParser(scalars: scalars, line: number, limits: limits)
            guard let rule = try parser.rule() else { continue }
            guard rules.count < limits.maxRules else {
                throw GroupingRulesError(
                    .groupingLimit,
                    "the rules file holds more than \(limits.maxRules) rules",
                    line: number,
                    column: 1
                )
            }
            rules.append(rule)
        }
        return GroupingRules(rules: rules)
    }
}
