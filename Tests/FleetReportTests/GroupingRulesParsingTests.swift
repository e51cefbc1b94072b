import APMInspectCore
import Testing

@testable import FleetReport

/// Sentry's fingerprint-rule syntax as `report --grouping` reads it, and the errors it gives with line and column.
@Suite struct GroupingRulesParsingTests {
    static func parse(_ text: String) throws(GroupingRulesError) -> GroupingRules {
        try GroupingRules.parse(Array(text.utf8))
    }

    static func failure(_ text: String, limits: GroupingRules.Limits = .init()) -> GroupingRulesError? {
        do {
            _ = try GroupingRules.parse(Array(text.utf8), limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func everyMatcherAndItsShortForm() throws {
        let pairs: [(String, GroupingRule.Field)] = [
            ("stack.function", .function), ("function", .function), ("stack.module", .module), ("module", .module),
            ("stack.package", .package), ("package", .package), ("stack.abs_path", .path), ("path", .path),
            ("error.type", .type), ("type", .type), ("error.value", .value), ("value", .value),
            ("message", .message),
        ]
        for (name, field) in pairs {
            let rules = try Self.parse("\(name):\"x*\" -> name")
            #expect(rules.rules.first?.matchers.map(\.field) == [field], "\(name)")
        }
        let app = try Self.parse("app:yes !app:no -> mine")
        #expect(app.rules.first?.matchers.map(\.appValue) == [true, false])
        #expect(app.rules.first?.matchers.map(\.negated) == [false, true])
    }

    @Test func linesCommentsQuotingAndNegation() throws {
        let text = """
            # Grouping rules\r
            \r

              stack.function:"ThumbnailCache.entry*" -> cache-crashes
            stack.module:libswiftCore.dylib !error.type:"EXC_CRASH" -> swift-runtime-traps
            "error.value":"say \\"hi\\" \\\\ \\*" -> quoted, "two words"
            """
        let rules = try Self.parse(text).rules
        #expect(rules.map(\.line) == [4, 5, 6])
        #expect(rules[0].text == #"stack.function:"ThumbnailCache.entry*" -> cache-crashes"#)
        #expect(rules[0].matchers.first?.pattern?.source == "ThumbnailCache.entry*")
        #expect(rules[0].fingerprint == [.text("cache-crashes")])
        #expect(rules[1].matchers.map(\.negated) == [false, true])
        #expect(rules[1].matchers.map { $0.pattern?.source } == ["libswiftCore.dylib", "EXC_CRASH"])
        // `\"` and `\\` are unescaped; another backslash stays for the glob (`\*` is a literal star).
        #expect(rules[2].matchers.first?.pattern?.source == #"say "hi" \ \*"#)
        #expect(rules[2].matchers.first?.pattern?.matches(#"SAY "HI"  *"#) == true)
        #expect(rules[2].fingerprint == [.text("quoted"), .text("two words")])
    }

    @Test func variablesAndTitle() throws {
        let rules = try Self.parse(
            """
            error.value:"*index out of range*" -> {{ default }}-oob
            type:EXC_BREAKPOINT -> {{function}} "{{ stack.module }}" {{ error.type }} title="Trap in {{ function }} ({{ value }})"
            function:* -> {{ default }}
            """
        ).rules
        // As in Sentry, `{{ default }}-oob` is two values.
        #expect(rules[0].fingerprint == [.variable(.default), .text("-oob")])
        #expect(rules[1].fingerprint == [.variable(.function), .variable(.module), .variable(.type)])
        #expect(
            rules[1].title == [.text("Trap in "), .variable(.function), .text(" ("), .variable(.value), .text(")")]
        )
        #expect(rules[2].fingerprint == [.variable(.default)])
    }

    @Test func errorsSayLineAndColumn() {
        let cases: [(String, Diagnostic.Code, Int, Int)] = [
            ("# ok\nstack.fuction:foo -> x", .groupingUnknownMatcher, 2, 1),
            ("function:foo bar", .groupingSyntax, 1, 17),
            ("function:foo -> ", .groupingSyntax, 1, 17),
            ("-> x", .groupingSyntax, 1, 1),
            ("function:\"foo -> x", .groupingSyntax, 1, 10),
            ("\n\n  function:\"ab[c\" -> x", .groupingBadPattern, 3, 15),
            ("function:foo -> {{ transaction }}", .groupingUnknownVariable, 1, 17),
            ("function:foo -> x level=\"error\"", .groupingUnknownAttribute, 1, 19),
            ("function:foo -> x title=\"{{ nope }}\"", .groupingUnknownVariable, 1, 25),
            ("app:maybe -> x", .groupingSyntax, 1, 5),
            ("function -> x", .groupingSyntax, 1, 9),
            ("!:foo -> x", .groupingSyntax, 1, 2),
            ("function:foo -> {{ default", .groupingSyntax, 1, 17),
        ]
        for (text, code, line, column) in cases {
            let error = Self.failure(text)
            #expect(error?.diagnostic.code == code, "\(text)")
            #expect(error?.diagnostic.location == SourceLocation(line: line, column: column), "\(text)")
            #expect(error?.diagnostic.severity == .error)
        }
        #expect(
            Self.failure("stack.fuction:foo -> x")?.description.hasPrefix("1:1: unknown matcher 'stack.fuction'")
                == true
        )
    }

    @Test func boundsOfAHostileFile() {
        var limits = GroupingRules.Limits()
        limits.maxRules = 2
        #expect(Self.failure("function:a -> x\nfunction:b -> y", limits: limits) == nil)
        let three = Self.failure("function:a -> x\nfunction:b -> y\n# c\nfunction:c -> z", limits: limits)
        #expect(three?.diagnostic.code == .groupingLimit)
        #expect(three?.diagnostic.location?.line == 4)
        limits = GroupingRules.Limits()
        limits.maxPatternLength = 8
        #expect(Self.failure("function:\"123456789\" -> x", limits: limits)?.diagnostic.code == .groupingLimit)
        limits.maxBytes = 10
        #expect(Self.failure("function:abc -> x", limits: limits)?.diagnostic.code == .groupingLimit)
        let invalid = GroupingRulesTestSupport.failure(bytes: Array("function:a -> x\n".utf8) + [0xFF, 0x41])
        #expect(invalid?.diagnostic.code == .groupingSyntax)
        #expect(invalid?.diagnostic.location?.line == 2)
        // A default-sized file of many rules parses; past 1,000 rules is refused.
        let many = (0..<1_001).map { "function:f\($0) -> g\($0)" }.joined(separator: "\n")
        #expect(Self.failure(many)?.diagnostic.message == "the rules file holds more than 1000 rules")
    }
}

enum GroupingRulesTestSupport {
    static func failure(bytes: [UInt8]) -> GroupingRulesError? {
        do {
            _ = try GroupingRules.parse(bytes)
            return nil
        } catch {
            return error
        }
    }
}
