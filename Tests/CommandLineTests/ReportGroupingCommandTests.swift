import Foundation
import Testing

/// `report --grouping RULES` as users run it: the rules name groups in every format, and a rules file with an
/// error stops the command, with where the error is, before any report is read.
@Suite struct ReportGroupingCommandTests {
    static let rules = "docs/examples/grouping.rules"

    @Test func rulesNameGroupsInJSONAndText() throws {
        let bin = try BuiltCommandTests.binary()
        let json = try BuiltCommandTests.run(
            bin,
            ["report", "--format", "json", "--grouping", Self.rules, "Corpus/crash"]
        )
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        )
        let filters = try #require(object["filters"] as? [String: Any])
        #expect(filters["grouping"] as? String == Self.rules)
        let crashes = try #require(object["crashes"] as? [String: Any])
        let groups = try #require(crashes["groups"] as? [[String: Any]])
        let cache = try #require(groups.first { $0["signature"] as? String == "fingerprint:cache-crashes" })
        #expect(cache["fingerprint"] as? [String] == ["cache-crashes"])
        #expect(cache["title"] as? String == "Thumbnail cache: ThumbnailCache.entry(for:)")
        let rule = try #require(cache["groupingRule"] as? [String: Any])
        #expect(rule["line"] as? Int == 6)
        #expect((rule["text"] as? String)?.hasPrefix("stack.function:\"ThumbnailCache.*\" -> cache-crashes") == true)
        let plain = groups.filter { $0["fingerprint"] == nil }
        #expect(!plain.isEmpty)
        #expect(plain.allSatisfy { $0["groupingRule"] == nil && $0["title"] == nil })

        let text = try BuiltCommandTests.run(bin, ["report", "--wide", "--grouping", Self.rules, "Corpus/crash"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("fingerprint:cache-crashes"))
        #expect(text.stdout.contains("grouped by the rule at line 6: stack.function:\"ThumbnailCache.*\""))
        #expect(text.stdout.contains("title: Thumbnail cache: ThumbnailCache.entry(for:)"))
        #expect(text.stdout.contains("Filters: grouping rules docs/examples/grouping.rules"))
    }

    @Test func aRulesFileWithAnErrorStopsBeforeAnyReport() throws {
        let bin = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.rules").path
        try Data("# fine\nstack.function:\"ok*\" -> a\nerror.typ:EXC_CRASH -> \u{1b}[31mred\n".utf8)
            .write(to: URL(fileURLWithPath: file))
        let run = try BuiltCommandTests.run(bin, ["report", "--grouping", file, "Corpus/crash"])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("\(file):3:1: error: unknown matcher 'error.typ'"))
        let missing = try BuiltCommandTests.run(
            bin,
            ["report", "--grouping", folder.path + "/none.rules", "Corpus/crash"]
        )
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("none.rules: error: cannot open"))
    }

    /// Strings of the rules file reach the terminal escaped, as report strings do.
    @Test func ruleTextIsEscapedOnTheTerminal() throws {
        let bin = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("escape.rules").path
        try Data("function:\"ThumbnailCache.*\" -> \"\u{1b}]0;owned\u{07}\" title=\"\u{1b}[2J\"\n".utf8)
            .write(to: URL(fileURLWithPath: file))
        let run = try BuiltCommandTests.run(bin, ["report", "--wide", "--grouping", file, BuiltCommandTests.crashText])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("\u{1b}"))
        #expect(!run.stdout.contains("\u{07}"))
        #expect(run.stdout.contains("fingerprint:\\x1b]0;owned\\x07"))
    }
}
