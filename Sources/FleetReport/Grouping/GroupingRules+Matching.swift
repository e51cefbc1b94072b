import CrashReportParsing

extension GroupingRules {
    /// The group the first rule that holds gives the crash `report`, whose default signature is `signature`; nil
    /// when no rule holds, or when the rule's fingerprint is `{{ default }}` alone (the crash keeps its default group,
    /// and later rules are not tried: Sentry's way of exempting crashes).
    package func grouping(of report: CrashReport, signature: String) -> GroupingMatch? {
        guard !rules.isEmpty else { return nil }
        let facts = CrashGroupingFacts(report: report, signature: signature)
        for rule in rules where Self.holds(rule, for: facts) {
            let fingerprint = rule.fingerprint.map { Self.fill($0, facts) }
            if rule.fingerprint == [.variable(.default)] { return nil }
            let title = rule.title.map { $0.map { Self.fill($0, facts) }.joined() }
            return GroupingMatch(
                fingerprint: fingerprint,
                title: title,
                rule: GroupingMatch.Rule(line: rule.line, text: rule.text)
            )
        }
        return nil
    }

    /// Sentry's semantics: the frame matchers must all hold on one frame, the exception matchers on the exception.
    static func holds(_ rule: GroupingRule, for facts: CrashGroupingFacts) -> Bool {
        let frameMatchers = rule.matchers.filter(\.field.isFrameField)
        let exceptionMatchers = rule.matchers.filter { !$0.field.isFrameField }
        if !frameMatchers.isEmpty {
            let found = facts.frames.contains { frame in frameMatchers.allSatisfy { holds($0, on: frame) } }
            guard found else { return false }
        }
        if !exceptionMatchers.isEmpty {
            guard !facts.exceptionNames.isEmpty || !facts.values.isEmpty else { return false }
            return exceptionMatchers.allSatisfy { holds($0, onException: facts) }
        }
        return true
    }

    private static func holds(_ matcher: GroupingRule.Matcher, on frame: CrashGroupingFacts.Frame) -> Bool {
        let positive: Bool
        switch matcher.field {
        case .app: positive = matcher.appValue == frame.isApp
        case .function: positive = matches(matcher.pattern, frame.function)
        case .module: positive = matches(matcher.pattern, frame.module)
        case .package: positive = matchesPath(matcher.pattern, frame.package)
        case .path: positive = matchesPath(matcher.pattern, frame.path)
        case .type, .value, .message: positive = false
        }
        return positive != matcher.negated
    }

    /// `error.type` holds when the Mach type or the signal matches; negated, when neither does.
    private static func holds(_ matcher: GroupingRule.Matcher, onException facts: CrashGroupingFacts) -> Bool {
        let candidates = matcher.field == .type ? facts.exceptionNames : facts.values
        let positive = candidates.contains { matches(matcher.pattern, $0) }
        return positive != matcher.negated
    }

    private static func matches(_ pattern: GlobPattern?, _ value: String?) -> Bool {
        guard let pattern, let value else { return false }
        return pattern.matches(value)
    }

    /// As Sentry, a relative path is tried with a leading `/` too, so `**/Foo.framework/*` holds for `Foo.framework/Foo`.
    private static func matchesPath(_ pattern: GlobPattern?, _ value: String?) -> Bool {
        guard let pattern, let value else { return false }
        if pattern.matches(value) { return true }
        return !value.hasPrefix("/") && pattern.matches("/" + value)
    }

    private static func fill(_ part: GroupingRule.Part, _ facts: CrashGroupingFacts) -> String {
        switch part {
        case .text(let text): return text
        case .variable(let variable):
            switch variable {
            case .default: return facts.signature
            case .function: return facts.crashFrame?.function ?? "<no-function>"
            case .module: return facts.crashFrame?.module ?? "<no-module>"
            case .package:
                let path = facts.crashFrame?.package
                let last = path?.split(separator: "/").last.map(String.init)
                return last ?? "<no-package>"
            case .type: return facts.exceptionNames.first ?? "<no-type>"
            case .value: return facts.values.first ?? "<no-value>"
            case .message: return facts.values.first ?? "<no-message>"
            }
        }
    }
}
