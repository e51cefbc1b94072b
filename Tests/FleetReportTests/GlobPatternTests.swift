import Testing

@testable import FleetReport

/// The glob of a grouping rule: Sentry's wildcards, case and path modes, and a matching time that no pattern can
/// make exponential.
@Suite struct GlobPatternTests {
    static func matches(_ pattern: String, _ text: String, _ mode: GlobPattern.Mode = .exact) throws -> Bool {
        try GlobPattern(pattern, mode: mode).matches(text)
    }

    @Test func wildcardsSetsAndEscapes() throws {
        #expect(try Self.matches("ThumbnailCache.entry*", "ThumbnailCache.entry(for:)"))
        #expect(try !Self.matches("ThumbnailCache.entry*", "LumenKit.ThumbnailCache.entry(for:)"))
        #expect(try Self.matches("*Cache*", "ThumbnailCache.entry(for:)"))
        // `[` opens a set: an Objective-C method's bracket is written `\[`.
        #expect(try Self.matches("-\\[HBR?ooringCache *]", "-[HBRMooringCache mooringAtIndex:]"))
        #expect(try !Self.matches("-[HBR?ooringCache *]", "-[HBRMooringCache mooringAtIndex:]"))
        #expect(try !Self.matches("a?c", "ac"))
        #expect(try Self.matches("EXC_[A-Z]*", "EXC_BAD_ACCESS"))
        #expect(try !Self.matches("EXC_[!B]*", "EXC_BAD_ACCESS"))
        #expect(try Self.matches("EXC_[^C]*", "EXC_BAD_ACCESS"))
        #expect(try Self.matches("[]]", "]"))
        #expect(try Self.matches("\\*\\?\\[", "*?["))
        #expect(try !Self.matches("\\*", "x"))
        #expect(try Self.matches("", ""))
        #expect(try !Self.matches("", "x"))
        #expect(try Self.matches("**", ""))
        #expect(try Self.matches("swift_*Error*", "swift_unexpectedError"))
        #expect(try Self.matches("ä?ö", "äüö"))
    }

    @Test func caseAndPathModes() throws {
        #expect(try !Self.matches("exc_bad_access", "EXC_BAD_ACCESS"))
        #expect(try Self.matches("*INDEX OUT OF RANGE*", "Fatal error: Index out of range", .ignoringCase))
        #expect(try Self.matches("[a-c]x", "Bx", .ignoringCase))
        #expect(try Self.matches("[A-C]x", "bx", .ignoringCase))
        let path = "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"
        #expect(try !Self.matches("*/UIKitCore.framework/*", path, .path))
        #expect(try Self.matches("**/uikitcore.framework/*", path, .path))
        #expect(try Self.matches("/system/**", path, .path))
        #expect(try Self.matches("**/Frameworks/*.dylib", "C:\\App\\Frameworks\\libfoo.dylib", .path))
    }

    @Test func patternProblemsSayWhere() {
        #expect(throws: GlobPattern.Problem(message: "the [ has no closing ]", offset: 4)) {
            try GlobPattern("abc*[xy", mode: .exact)
        }
        #expect(throws: GlobPattern.Problem(message: "the pattern ends with a lone \\", offset: 2)) {
            try GlobPattern("ab\\", mode: .exact)
        }
        #expect(throws: GlobPattern.Problem(message: "the range z-a is backwards", offset: 1)) {
            try GlobPattern("[z-a]", mode: .exact)
        }
    }

    /// A backtracking matcher takes exponential time here; the automaton reads each character once per state, so
    /// this finishes (and the answers are right) whatever the machine.
    @Test func pathologicalPatternOnALongNameFinishes() throws {
        let pattern = try GlobPattern("*a*a*a*a*a*a*b", mode: .exact)
        let name = String(repeating: "a", count: 64 << 10)
        #expect(!pattern.matches(name))
        #expect(pattern.matches(name + "b"))
        #expect(!pattern.matches("aaaaab"))
        let path = try GlobPattern("**a**a**a**a**a**a**b", mode: .path)
        #expect(!path.matches(String(repeating: "a/", count: 32 << 10)))
        let classes = try GlobPattern(String(repeating: "*[a-z]", count: 40) + "!", mode: .ignoringCase)
        #expect(!classes.matches(String(repeating: "Q", count: 64 << 10)))
        // Consecutive stars are one state: `***…*b` is as small as `*b`.
        #expect(try GlobPattern(String(repeating: "*", count: 1_000) + "b", mode: .exact).tokens.count == 2)
    }
}
