import APMInspectCore
import FleetReport
import Foundation
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import ReportSources
import Testing

/// Grouping rules on real crash reports from `Corpus/`: which rule holds, what the group is named, and that the
/// files and the NDJSON of a scan of them give the same groups.
@Suite struct GroupingRulesMatchingTests {
    static let lumen = "crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"
    static let harbor = "crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"
    static let ferrule = "kscrash/sentrycrash_v3.2.0_ios17.4_exc_breakpoint_swift_fatal_error_scope.json"

    static func path(_ name: String) -> String { FuzzReplayInputs.root.appendingPathComponent("Corpus/" + name).path }

    static func rules(_ text: String) throws -> GroupingRules { try GroupingRules.parse(Array(text.utf8)) }

    /// The crash of one Corpus report, grouped by `rules`.
    static func crash(_ name: String, _ rules: String) throws -> FleetEvent.Crash? {
        try ReportInspector().inspect(path: path(name)).fleetEvent(grouping: try Self.rules(rules)).crashes.first
    }

    static func grouping(_ name: String, _ rules: String) throws -> GroupingMatch? {
        try crash(name, rules)?.grouping
    }

    @Test func aFunctionGlobNamesTheGroup() throws {
        let rules = "# the cache\nstack.function:\"ThumbnailCache.entry*\" -> cache-crashes"
        let match = try Self.grouping(Self.lumen, rules)
        #expect(match?.fingerprint == ["cache-crashes"])
        #expect(
            match?.rule
                == GroupingMatch.Rule(line: 2, text: "stack.function:\"ThumbnailCache.entry*\" -> cache-crashes")
        )
        #expect(match?.signature == "fingerprint:cache-crashes")
        #expect(match?.title == nil)
        #expect(try Self.grouping(Self.harbor, rules) == nil)
        // The crash keeps its signature: the rule changes the group, not the crash's own facts.
        #expect(try Self.crash(Self.lumen, rules)?.signature == "6f615aa2a4c2899e")
    }

    @Test func errorTypeMatchesTheMachTypeOrTheSignal() throws {
        #expect(try Self.grouping(Self.lumen, "error.type:SIGSEGV -> segv")?.fingerprint == ["segv"])
        #expect(try Self.grouping(Self.lumen, "type:\"EXC_BAD_*\" -> bad")?.fingerprint == ["bad"])
        #expect(try Self.grouping(Self.lumen, "error.type:\"EXC_BAD_ACCESS (SIGSEGV)\" -> both") == nil)
        // Negated, it holds only when neither name matches.
        #expect(try Self.grouping(Self.lumen, "!error.type:SIGSEGV -> not-segv") == nil)
        #expect(try Self.grouping(Self.harbor, "!error.type:SIGSEGV -> not-segv")?.fingerprint == ["not-segv"])
    }

    @Test func errorValueReadsTheReasonLinesWithoutCase() throws {
        #expect(try Self.grouping(Self.harbor, "error.value:\"*ABORT() CALLED*\" -> aborts")?.fingerprint == ["aborts"])
        #expect(try Self.grouping(Self.harbor, "message:\"*abort()*\" -> aborts")?.fingerprint == ["aborts"])
        #expect(try Self.grouping(Self.lumen, "value:* -> any") == nil)  // the report has no message line
        let trap = "stack.module:\"libswiftCore.dylib\" error.type:\"EXC_BREAKPOINT\" -> swift-runtime-traps"
        #expect(
            try Self.grouping(Self.ferrule, "error.value:\"*found nil*\" -> nil-unwraps")?.fingerprint == [
                "nil-unwraps"
            ]
        )
        #expect(try Self.grouping(Self.ferrule, trap)?.fingerprint == ["swift-runtime-traps"])
        #expect(try Self.grouping(Self.lumen, trap) == nil)
    }

    /// As in Sentry, a rule's frame matchers must hold on one frame, not on any frames each.
    @Test func frameMatchersHoldOnTheSameFrame() throws {
        let method = #"function:"-\[HBRMooringCache *" -> harbor"#
        #expect(try Self.grouping(Self.harbor, method)?.fingerprint == ["harbor"])
        #expect(try Self.grouping(Self.lumen, "function:\"ThumbnailCache.*\" module:LumenKit -> a") != nil)
        #expect(try Self.grouping(Self.lumen, "function:\"ThumbnailCache.*\" app:yes -> a") != nil)
        #expect(try Self.grouping(Self.lumen, "module:Lumen module:LumenKit -> a") == nil)
        #expect(try Self.grouping(Self.lumen, "function:\"ThumbnailCache.*\" !module:LumenKit -> a") == nil)
        #expect(try Self.grouping(Self.lumen, "function:\"ThumbnailCache.*\" !module:Lumen -> a") != nil)
        #expect(
            try Self.grouping(Self.lumen, "package:\"**/LumenKit.framework/LumenKit\" -> kit")?.fingerprint == ["kit"]
        )
        #expect(try Self.grouping(Self.lumen, "package:\"*/LumenKit.framework/LumenKit\" -> kit") == nil)
    }

    @Test func theFirstRuleWinsAndDefaultAloneKeepsTheGroup() throws {
        let rules = """
            function:"ThumbnailCache*" -> {{ default }}
            function:* -> everything
            error.type:EXC_CRASH -> never-reached
            """
        #expect(try Self.grouping(Self.lumen, rules) == nil)
        #expect(try Self.grouping(Self.harbor, rules)?.rule.line == 2)
    }

    @Test func variablesAreFilledFromTheCrash() throws {
        let rules =
            #"type:* -> {{ type }} {{ function }} {{ module }} {{ default }}-x title="{{ value }} in {{ package }}""#
        let match = try Self.grouping(Self.harbor, rules)
        #expect(
            match?.fingerprint == [
                "EXC_CRASH", "-[HBRMooringCache mooringAtIndex:]", "HarborKit", "adb296751ce47f08", "-x",
            ]
        )
        #expect(match?.title == "libsystem_c.dylib: abort() called in HarborKit")
        #expect(
            match?.signature == "fingerprint:EXC_CRASH -[HBRMooringCache mooringAtIndex:] HarborKit adb296751ce47f08 -x"
        )
        #expect(try Self.grouping(Self.lumen, "type:* -> {{ value }}")?.fingerprint == ["<no-value>"])
    }

    /// The fleet report of several reports: the rule's group, named and attributed, and the other groups as they
    /// were; the same from the files and from the NDJSON of a scan of them.
    @Test func theFleetReportGroupsByRuleFromFilesAndFromNDJSON() throws {
        let names = [Self.lumen, Self.harbor, Self.ferrule, "crash/kscrash_style_x86_64_simulator_side_by_side.crash"]
        let rules = try Self.rules(
            "stack.function:\"*ThumbnailCache*\" -> cache-crashes title=\"Cache: {{ function }}\""
        )
        var plain = FleetAggregator()
        var direct = FleetAggregator()
        var lines = ""
        for name in names {
            let inspection = ReportInspector().inspect(path: Self.path(name))
            plain.add(inspection.fleetEvent)
            direct.add(inspection.fleetEvent(grouping: rules))
            lines += try JSONOutput.encode(inspection, pretty: false) + "\n"
        }
        let summary = direct.summary()
        let cache = summary.crashes.groups.first { $0.fingerprint != nil }
        #expect(cache?.signature == "fingerprint:cache-crashes")
        #expect(cache?.count == 2)
        #expect(cache?.fingerprint == ["cache-crashes"])
        #expect(cache?.groupingRule?.line == 1)
        #expect(cache?.title?.hasPrefix("Cache: ") == true)
        #expect(summary.crashes.groups.count == 3)
        let others = summary.crashes.groups.filter { $0.fingerprint == nil }.map(\.signature).sorted()
        #expect(others == ["adb296751ce47f08", "fb9fcc7f8428d599"])
        // Without rules, or with rules that hold for nothing, the groups are the signatures', byte for byte.
        var none = FleetAggregator()
        for name in names {
            none.add(
                ReportInspector().inspect(path: Self.path(name)).fleetEvent(
                    grouping: try Self.rules("# none\nfunction:nothing -> x")
                )
            )
        }
        #expect(try JSONOutput.encode(none.summary(), pretty: true) == JSONOutput.encode(plain.summary(), pretty: true))
        #expect(plain.summary().crashes.groups.allSatisfy { $0.fingerprint == nil && $0.groupingRule == nil })

        let folder = try TemporaryTestFolder()
        defer { folder.remove() }
        let ndjson = folder.path + "/scan.ndjson"
        try Data(lines.utf8).write(to: URL(fileURLWithPath: ndjson))
        var replayed = FleetAggregator()
        var reader = NDJSONReader()
        reader.grouping = rules
        try reader.read(path: ndjson) { line in
            if case .event(let event) = line { replayed.add(event, fromNDJSON: true) }
            return true
        }
        var right = replayed.summary()
        right.inputs.ndjsonEnvelopes = 0
        #expect(right == summary)
    }

    /// A rule-made group's name, title and rule reach every format escaped: they are input like a report's strings.
    @Test func everyFormatShowsTheRuleEscaped() throws {
        let hostile = "<script>x</script>|*\u{1b}[31m"
        let rules = try Self.rules(
            #"function:"ThumbnailCache.*" -> "\#(hostile)" title="\#(hostile) {{ function }}""#
        )
        var aggregator = FleetAggregator()
        aggregator.add(ReportInspector().inspect(path: Self.path(Self.lumen)).fleetEvent(grouping: rules))
        let summary = aggregator.summary()
        #expect(summary.crashes.groups.first?.groupingRule?.line == 1)
        let html = FleetReportHTMLRenderer.render(summary)
        #expect(!html.contains("<script>x"))
        #expect(!html.contains("\u{1b}"))
        #expect(html.contains("data-rule-line=\"1\">rule at line 1: <code>function:&quot;ThumbnailCache.*&quot;"))
        #expect(html.contains("<div class=\"grouping-title\">&lt;script&gt;x&lt;/script&gt;|*\\x1b[31m ThumbnailCache"))
        let markdown = FleetReportTextRenderer.markdown(summary)
        #expect(!markdown.contains("<script>"))
        #expect(!markdown.contains("\u{1b}"))
        #expect(markdown.contains("grouped by the rule at line 1: function:"))
        let text = FleetReportTextRenderer.text(summary)
        #expect(!text.contains("\u{1b}"))
        #expect(text.contains("title: <script>x</script>|*\\x1b[31m ThumbnailCache.entry(for:)"))
    }

    /// The rules file docs/fleet-report.md shows, on the Corpus crashes it names.
    @Test func theDocumentedExampleRulesGroupAsDocumented() throws {
        let file = FuzzReplayInputs.root.appendingPathComponent("docs/examples/grouping.rules").path
        let rules = try GroupingRules.parse(try FileReading.contents(atPath: file))
        #expect(rules.rules.map(\.line) == [6, 9, 12])
        let (files, _) = PathWalker.rawFiles(in: [Self.path("crash"), Self.path("kscrash")], note: { _ in })
        var aggregator = FleetAggregator()
        for raw in files { aggregator.add(ReportInspector().inspect(raw: raw).fleetEvent(grouping: rules)) }
        let named = aggregator.summary().crashes.groups.compactMap { group in
            group.fingerprint.map { ($0.joined(separator: " "), group.groupingRule?.line ?? 0, group.count) }
        }
        let byName = Dictionary(named.map { ($0.0, ($0.1, $0.2)) }, uniquingKeysWith: { first, _ in first })
        #expect(byName["cache-crashes"]?.0 == 6)
        #expect(byName["swift-trap Ledger.balance(for:)"]?.0 == 9)
        let uncaught = named.filter { $0.0.hasSuffix(" uncaught-exception") }.map(\.0).sorted()
        #expect(
            uncaught
                == ["00ed43d2a60e6b02", "28af4ba9843c554a", "7acdd0b84ee7c5e7", "cfc25c55b4799a57"].map {
                    $0 + " uncaught-exception"
                }
        )
        #expect(named.count == 6)
        #expect(named.allSatisfy { $0.2 == 1 })
    }
}
