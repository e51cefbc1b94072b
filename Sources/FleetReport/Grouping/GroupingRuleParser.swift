import APMInspectCore

/// Reads one line of a rules file, following Sentry's grammar: `[!]key:value ... -> value ... [title="…"]`.
///
/// Values are quoted (`"…"`, with `\"` and `\\` escapes; another backslash stays, for the glob) or run to the next
/// space; fingerprint values are separated by spaces or commas, and `{{ name }}` is one value on its own, so
/// `{{ default }}-oob` is two values, as in Sentry. A `#` starts a comment only at the start of a line.
struct GroupingRuleParser {
    let scalars: [Unicode.Scalar]
    let line: Int
    let limits: GroupingRules.Limits
    var index = 0

    init(scalars: [Unicode.Scalar], line: Int, limits: GroupingRules.Limits) {
        self.scalars = scalars
        self.line = line
        self.limits = limits
    }

    /// The rule on the line, or nil for a blank line or a comment.
    mutating func rule() throws(GroupingRulesError) -> GroupingRule? {
        skipSpaces()
        guard index < scalars.count, scalars[index] != "#" else { return nil }
        let start = index
        var matchers: [GroupingRule.Matcher] = []
        while true {
            skipSpaces()
            if startsArrow() { break }
            guard index < scalars.count else {
                throw error(.groupingSyntax, "expected -> and a fingerprint after the matchers")
            }
            guard matchers.count < limits.maxMatchersPerRule else {
                throw error(.groupingLimit, "a rule has more than \(limits.maxMatchersPerRule) matchers")
            }
            matchers.append(try matcher())
        }
        guard !matchers.isEmpty else { throw error(.groupingSyntax, "expected a matcher (function:\"…\") before ->") }
        index += 2
        var fingerprint: [GroupingRule.Part] = []
        var title: [GroupingRule.Part]?
        while true {
            skipSpaces()
            guard index < scalars.count else { break }
            if scalars[index] == "," {
                index += 1
                continue
            }
            if let attribute = try attribute() {
                title = attribute
                continue
            }
            guard fingerprint.count < limits.maxFingerprintValues else {
                throw error(.groupingLimit, "a fingerprint has more than \(limits.maxFingerprintValues) values")
            }
            fingerprint.append(try fingerprintValue())
        }
        guard !fingerprint.isEmpty else { throw error(.groupingSyntax, "expected a fingerprint after ->") }
        var end = scalars.count
        while end > start, scalars[end - 1] == " " || scalars[end - 1] == "\t" { end -= 1 }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<end])
        return GroupingRule(line: line, text: text, matchers: matchers, fingerprint: fingerprint, title: title)
    }

    // MARK: Matchers

    private mutating func matcher() throws(GroupingRulesError) -> GroupingRule.Matcher {
        var negated = false
        if scalars[index] == "!" {
            negated = true
            index += 1
        }
        let keyColumn = index
        let key: String
        if index < scalars.count, scalars[index] == "\"" {
            index += 1
            key = word { Self.isKeyScalar($0) || $0 == ":" }
            guard index < scalars.count, scalars[index] == "\"" else {
                throw error(.groupingSyntax, "expected \" to close the matcher's name")
            }
            index += 1
        } else {
            key = word(Self.isKeyScalar)
        }
        guard !key.isEmpty else {
            throw error(.groupingSyntax, "expected a matcher (function:\"…\", error.type:\"…\" …) or ->")
        }
        guard index < scalars.count, scalars[index] == ":" else {
            throw error(.groupingSyntax, "expected : after the matcher '\(key)', or -> and a fingerprint")
        }
        guard let field = GroupingRule.Field.names.first(where: { $0.0 == key })?.1 else {
            let known = GroupingRule.Field.names.map(\.0).joined(separator: ", ")
            throw error(.groupingUnknownMatcher, "unknown matcher '\(key)' (known: \(known))", at: keyColumn)
        }
        index += 1
        let valueColumn = index
        let value: String
        if index < scalars.count, scalars[index] == "\"" {
            value = try quoted()
        } else {
            value = word { $0 != " " && $0 != "\t" }
            guard !value.isEmpty else { throw error(.groupingSyntax, "expected a value after '\(key):'") }
        }
        guard value.unicodeScalars.count <= limits.maxPatternLength else {
            throw error(
                .groupingLimit,
                "the pattern is longer than \(limits.maxPatternLength) characters",
                at: valueColumn
            )
        }
        if field == .app {
            guard let flag = Self.flag(value) else {
                throw error(.groupingSyntax, "app: wants yes or no, not '\(value)'", at: valueColumn)
            }
            return GroupingRule.Matcher(field: field, negated: negated, pattern: nil, appValue: flag)
        }
        let mode: GlobPattern.Mode =
            switch field {
            case .package, .path: .path
            case .value, .message: .ignoringCase
            default: .exact
            }
        do throws(GlobPattern.Problem) {
            let pattern = try GlobPattern(value, mode: mode)
            return GroupingRule.Matcher(field: field, negated: negated, pattern: pattern, appValue: nil)
        } catch {
            // The column of a quoted value's characters, past its opening quote (escapes make it approximate).
            let offset = valueColumn + (scalars[valueColumn] == "\"" ? 1 : 0) + error.offset
            throw self.error(.groupingBadPattern, "bad pattern: \(error.message)", at: offset)
        }
    }

    /// Sentry's `bool_from_string`.
    private static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "1", "on": true
        case "no", "false", "0", "off": false
        default: nil
        }
    }

    // MARK: Fingerprint

    /// `title="…"`, or nil (and nothing read) when the next value is not an attribute.
    private mutating func attribute() throws(GroupingRulesError) -> [GroupingRule.Part]? {
        let start = index
        let key = word(Self.isKeyScalar)
        guard !key.isEmpty, index + 1 < scalars.count, scalars[index] == "=", scalars[index + 1] == "\"" else {
            index = start
            return nil
        }
        guard key == "title" else {
            throw error(.groupingUnknownAttribute, "unknown attribute '\(key)' (only title=\"…\" is known)", at: start)
        }
        index += 1
        let valueColumn = index
        let text = try quoted()
        guard text.unicodeScalars.count <= limits.maxPatternLength else {
            throw error(
                .groupingLimit,
                "the title is longer than \(limits.maxPatternLength) characters",
                at: valueColumn
            )
        }
        return try template(text, at: valueColumn)
    }

    private mutating func fingerprintValue() throws(GroupingRulesError) -> GroupingRule.Part {
        let column = index
        let text: String
        if scalars[index] == "\"" {
            text = try quoted()
        } else if startsVariable() {
            guard let close = closingBraces(from: index + 2) else {
                throw error(.groupingSyntax, "expected }} to close the variable")
            }
            var written = ""
            written.unicodeScalars.append(contentsOf: scalars[index..<(close + 2)])
            index = close + 2
            text = written
        } else {
            text = word { $0 != " " && $0 != "\t" && $0 != "," && $0 != "{" }
            guard !text.isEmpty else { throw error(.groupingSyntax, "unexpected { in the fingerprint") }
        }
        guard text.unicodeScalars.count <= limits.maxPatternLength else {
            throw error(.groupingLimit, "a fingerprint value is longer than \(limits.maxPatternLength) characters")
        }
        // A value that is one `{{ name }}`, quoted or not, is that variable (Sentry resolves whole values only).
        let scalars = Array(text.unicodeScalars)
        if scalars.count >= 4, scalars.starts(with: ["{", "{"]), scalars.suffix(2).elementsEqual(["}", "}"]) {
            var name = ""
            name.unicodeScalars.append(contentsOf: scalars[2..<(scalars.count - 2)])
            return .variable(try variable(name, at: column))
        }
        return .text(text)
    }

    /// A title: text with `{{ name }}` variables anywhere in it.
    private func template(_ text: String, at column: Int) throws(GroupingRulesError) -> [GroupingRule.Part] {
        var parts: [GroupingRule.Part] = []
        var literal = ""
        let scalars = Array(text.unicodeScalars)
        var position = 0
        while position < scalars.count {
            if position + 1 < scalars.count, scalars[position] == "{", scalars[position + 1] == "{",
                let close = Self.closingBraces(in: scalars, from: position + 2)
            {
                if !literal.isEmpty { parts.append(.text(literal)) }
                literal = ""
                var name = ""
                name.unicodeScalars.append(contentsOf: scalars[(position + 2)..<close])
                parts.append(.variable(try variable(name, at: column)))
                position = close + 2
            } else {
                literal.unicodeScalars.append(scalars[position])
                position += 1
            }
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
        return parts
    }

    private func variable(_ written: String, at column: Int) throws(GroupingRulesError) -> GroupingRule.Variable {
        let name = written.trimmingASCIIWhitespace()
        guard let variable = GroupingRule.Variable.named(name) else {
            let known = GroupingRule.Variable.allCases.map(\.rawValue).joined(separator: ", ")
            throw error(
                .groupingUnknownVariable,
                "unknown variable '{{ \(name) }}' (known: \(known), and stack.function, error.type … for them)",
                at: column
            )
        }
        return variable
    }

    // MARK: Lexing

    private mutating func skipSpaces() {
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
    }

    private func startsArrow() -> Bool {
        index + 1 < scalars.count && scalars[index] == "-" && scalars[index + 1] == ">"
    }

    private func startsVariable() -> Bool {
        index + 1 < scalars.count && scalars[index] == "{" && scalars[index + 1] == "{"
    }

    private func closingBraces(from start: Int) -> Int? {
        Self.closingBraces(in: scalars, from: start)
    }

    /// The index of the first `}}` at or after `start`.
    private static func closingBraces(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var position = start
        while position + 1 < scalars.count {
            if scalars[position] == "}", scalars[position + 1] == "}" { return position }
            position += 1
        }
        return nil
    }

    private static func isKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", ".", "-": true
        default: false
        }
    }

    /// The run of scalars from `index` that `accepts` takes.
    private mutating func word(_ accepts: (Unicode.Scalar) -> Bool) -> String {
        var text = ""
        while index < scalars.count, accepts(scalars[index]) {
            text.unicodeScalars.append(scalars[index])
            index += 1
        }
        return text
    }

    /// A quoted value from the `"` at `index`: `\"` and `\\` are unescaped, another backslash stays (so `"\*"` is a
    /// glob's escaped star, as in Sentry, which unescapes the string before reading it as a glob).
    private mutating func quoted() throws(GroupingRulesError) -> String {
        let open = index
        index += 1
        var text = ""
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"" {
                index += 1
                return text
            }
            if scalar == "\\", index + 1 < scalars.count {
                let next = scalars[index + 1]
                if next == "\"" || next == "\\" {
                    text.unicodeScalars.append(next)
                    index += 2
                    continue
                }
            }
            text.unicodeScalars.append(scalar)
            index += 1
        }
        throw error(.groupingSyntax, "expected \" to close the value", at: open)
    }

    private func error(_ code: Diagnostic.Code, _ message: String, at position: Int? = nil) -> GroupingRulesError {
        GroupingRulesError(code, message, line: line, column: (position ?? index) + 1)
    }
}
