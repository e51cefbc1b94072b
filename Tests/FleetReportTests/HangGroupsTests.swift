import APMInspectCore
import CrashReportParsing
import FleetReport
import Foundation
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Hangs in `report` from every source: counted by source, grouped by the main thread's stack with the watchdog
/// classifier's verdict, and drawn as folded stacks and an SVG flame graph.
///
/// The corpus' own hang reports of each kind: KSCrash's recovered hang and 0x8badf00d kill, Apple's 0x8badf00d
/// watchdog reports (JSON and text), `Corpus/crash`'s 310 MicroRunloopHang (the KSCrash hang's stack, one build
/// later), MetricKit's legacy and iOS 27 hang diagnostics, an App Store Connect hang-logs response; and two reports
/// that are not hangs (a crash, a thermal kill).
@Suite struct HangGroupsTests {
    static let kscrashHang = "Corpus/kscrash/v3.7.0_ios18.2_arm64_hang_recovered_sqlite_main_thread.json"
    static let kscrashWatchdog = "Corpus/kscrash/v3.7.0_ios18.2_arm64_watchdog_0x8badf00d_launch_hang.json"
    static let appleHang = "Corpus/crash/ios18.2_310_json_micro_runloop_hang_sqlite_main_thread.ips"
    static let appleWatchdog = "Corpus/watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips"
    static let appleWatchdogText = "Corpus/watchdog/ios13.6_text_springboard_scene-create_8badf00d_semaphore.crash"
    static let thermal = "Corpus/watchdog/ios14.7_text_runningboard_c00010ff_thermal.crash"
    static let metricKitLegacy = "Corpus/metrickit/ios16.4.1_two_payloads_hangs_per_thread_tree.json"
    static let metricKit27 = "Corpus/metrickit/ios27.0_diagnostic_reports_array_hang_and_variants.json"
    static let appStoreConnect = "Corpus/appstoreconnect/asc_v1_signature_logs_hang_per_thread.json"
    static let crash = "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"

    static let paths = [
        kscrashHang, kscrashWatchdog, appleHang, appleWatchdog, appleWatchdogText, thermal, metricKitLegacy,
        metricKit27, appStoreConnect, crash,
    ]

    static func inspections() throws -> [Inspection] {
        try paths.map { path in
            let bytes = try FileReading.contents(atPath: FuzzReplayInputs.root.appendingPathComponent(path).path)
            return ReportInspector().inspect(bytes: bytes, path: path)
        }
    }

    static func summary(_ inspections: [Inspection]) -> FleetSummary {
        var aggregator = FleetAggregator()
        for inspection in inspections { aggregator.add(inspection.fleetEvent) }
        return aggregator.summary()
    }

    @Test func everySourceIsCountedFromAMixedFolder() throws {
        let inspections = try Self.inspections()
        #expect(inspections.allSatisfy { $0.failure == nil })
        let summary = Self.summary(inspections)
        #expect(
            summary.hangs.bySource == [
                "metricKit": 3, "kscrash": 1, "appleHangReport": 1, "watchdogKill": 3, "appStoreConnect": 1,
            ]
        )
        #expect(summary.hangs.groups.map(\.count).reduce(0, +) == 9)
        // Apple's hang report is a hang, not a crash: the one crash is the EXC_BAD_ACCESS.
        #expect(summary.crashes.total == 1)
        // KSCrash's hang, Apple's hang report and the App Store Connect response (one, whatever its logs).
        #expect(summary.categories.hangs == 3 && summary.hangs.total == 3)
    }

    @Test func theSameMainStackFromTwoSourcesIsOneGroup() throws {
        let hangs = Self.summary(try Self.inspections()).hangs
        // KSCrash's recovered hang, its 0x8badf00d kill of the same stall at launch, and Apple's hang report of
        // the next build: one stack, three sources, one group.
        let group = try #require(hangs.groups.first { $0.sources["appleHangReport"] != nil })
        #expect(group.sources == ["kscrash": 1, "appleHangReport": 1, "watchdogKill": 1])
        #expect(group.count == 3 && hangs.groups.first == group)
        #expect(group.byVersion.values.map(\.value) == ["3.1.8", "3.1.9"])
        #expect(group.byVersion.values.map(\.count) == [2, 1])
        #expect(group.app == "net.fernhollow.kestrel")
        #expect(
            group.frames == [
                "KestrelCore`FeedStore.loadLatest(limit:)", "Kestrel`FeedViewController.viewDidLoad()",
                "UIKitCore`-[UIViewController _sendViewDidLoadWithAppearanceProxyObjectTaggingEnabled]",
                "UIKitCore`-[UIViewController loadViewIfRequired]", "CoreFoundation`__CFRunLoopRun",
            ]
        )
        #expect(group.verdict == "synchronousFileOrDatabaseIO" && group.verdictReason == nil)
        #expect(group.files == [Self.appleHang, Self.kscrashHang, Self.kscrashWatchdog])
    }

    @Test func everyGroupHasAVerdict() throws {
        let hangs = Self.summary(try Self.inspections()).hangs
        let verdicts: Set<String> = [
            "waitingOnLock", "synchronousDispatchOrOnce", "synchronousFileOrDatabaseIO", "synchronousNetworking",
            "crossProcessCall", "runtimeOrLoaderLock", "busyInAppCode", "idleRunLoop", "unknown",
        ]
        #expect(!hangs.groups.isEmpty)
        for group in hangs.groups {
            #expect(verdicts.contains(group.verdict), "\(group.signature)")
            #expect((group.verdict == "unknown") == (group.verdictReason != nil), "\(group.signature)")
            #expect(group.verdicts.values.reduce(0, +) == group.count)
        }
        // Apple's watchdog report keeps the verdict its own analysis gave (synchronous networking).
        let network = try #require(hangs.groups.first { $0.files.contains(Self.appleWatchdog) })
        #expect(network.verdict == "synchronousNetworking" && network.sources == ["watchdogKill": 1])
    }

    @Test func aHangWithoutAStackIsUnknownWithAReason() throws {
        var report = CrashReport(sourceFormat: .kscrash)
        report.category = .hang
        report.bundleId = "net.fernhollow.kestrel"
        let hang = try #require(FleetEvent.hang(report))
        #expect(hang.source == "kscrash" && hang.frames == ["?"] && hang.stack.isEmpty)
        #expect(hang.verdict == "unknown" && hang.verdictReason == "the report has no main-thread backtrace")
        var aggregator = FleetAggregator()
        var event = FleetEvent(file: "hang.json", kind: "kscrash")
        event.hangs = [hang]
        aggregator.add(event)
        let group = try #require(aggregator.summary().hangs.groups.first)
        #expect(group.signature == "?" && group.verdict == "unknown")
        #expect(group.verdictReason == "the report has no main-thread backtrace")
        // Not a hang: a crash, or a watchdog kill of another code.
        report.category = .crash
        #expect(FleetEvent.hang(report) == nil)
    }

    @Test func theNDJSONOfAScanGivesTheSameHangs() throws {
        let inspections = try Self.inspections()
        var replayed = FleetAggregator()
        for inspection in inspections {
            let line = try JSONOutput.encode(inspection, pretty: false)
            replayed.add(try FleetEnvelope.decode(line: Array(line.utf8)), fromNDJSON: true)
        }
        let direct = Self.summary(inspections)
        #expect(replayed.summary().hangs == direct.hangs)
        #expect(replayed.summary().categories == direct.categories)
    }

    @Test func theHangsDoNotDependOnTheOrderOfTheReports() throws {
        let inspections = try Self.inspections()
        let forward = Self.summary(inspections).hangs
        #expect(Self.summary(inspections.reversed()).hangs == forward)
        // Every other report first: hangs of one group from different files arrive apart.
        let interleaved = inspections.enumerated().sorted { ($0.offset % 2, $0.offset) < ($1.offset % 2, $1.offset) }
        #expect(Self.summary(interleaved.map(\.element)).hangs == forward)
    }

    @Test func foldedLinesAreTheMainThreadStacksRootFirst() throws {
        let summary = Self.summary(try Self.inspections())
        let folded = try FleetReportRun.render(summary, as: .folded)
        let lines = folded.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(folded.hasSuffix("\n") && lines.count == summary.hangs.stacks.count)
        for line in lines {
            // `frame;frame;frame count`: no white space inside a frame, a positive count at the end.
            let parts = line.split(separator: " ")
            #expect(parts.count == 2, "\(line)")
            #expect(Int(parts.last ?? "").map { $0 > 0 } == true, "\(line)")
            #expect(!(parts.first ?? "").split(separator: ";").contains { $0.isEmpty })
        }
        let kestrel =
            "start;main;UIApplicationMain;CFRunLoopRunSpecific;__CFRunLoopRun;-[UIViewController_loadViewIfRequired];"
            + "-[UIViewController__sendViewDidLoadWithAppearanceProxyObjectTaggingEnabled];"
            + "FeedViewController.viewDidLoad();FeedStore.loadLatest(limit:);sqlite3_step;__psynch_mutexwait 3"
        #expect(lines.contains { $0 == kestrel })
    }

    @Test func theFlameGraphIsWellFormedSVGInThePage() throws {
        let page = FleetReportHTMLRenderer.render(Self.summary(try Self.inspections()))
        let start = try #require(page.range(of: "<svg id=\"hang-flame\""))
        let end = try #require(page.range(of: "</svg>", range: start.upperBound..<page.endIndex))
        let svg = String(page[start.lowerBound..<end.upperBound])
        let elements = try Self.parse(svg)
        #expect(elements.first == "svg")
        #expect(elements.filter { $0 == "rect" }.count == elements.filter { $0 == "title" }.count)
        #expect(svg.contains("<title>FeedStore.loadLatest(limit:) (3, 33.33 %)</title>"))
        #expect(page.contains("<table id=\"hang-groups\" class=\"wide\">"))
        #expect(
            page.contains("<tr class=\"hang-group-row\" data-count=\"3\" data-verdict=\"synchronousFileOrDatabaseIO\">")
        )
    }

    @Test func hostileNamesAreEscapedAndTheGraphStaysBounded() throws {
        let hostile = "</title><script>alert(\"x\")</script>&amp;'\u{1b}[31m]]><!--"
        let stacks: [(frames: [String], count: Int)] = [
            (["root", hostile, String(repeating: "x", count: 100_000)], 3), (["root", "work"], Int.max),
        ]
        let svg = FlameGraphSVG().render(stacks, id: "g\"<", label: hostile)
        let elements = try Self.parse(svg)
        #expect(!elements.contains("script"))
        #expect(!svg.contains("<script") && !svg.contains("\u{1b}"))
        #expect(svg.contains("&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;&#39;\\x1b[31m"))
        #expect(svg.utf8.count < 10_000)
        // The same stacks draw the same bytes, whatever their order.
        #expect(FlameGraphSVG().render(stacks.reversed(), id: "g\"<", label: hostile) == svg)
        #expect(FlameGraphSVG().render([], id: "empty", label: "none").isEmpty)

        // Thousands of frames, deep or wide, even where each would be drawn: at most the budget.
        var graph = FlameGraphSVG()
        graph.minFrameWidth = 0
        let deep = graph.render([((0..<5000).map { "frame\($0)" }, 2)], id: "deep", label: "deep")
        let deepElements = try Self.parse(deep)
        #expect(deepElements.filter { $0 == "rect" }.count == graph.maxDepth + 1)
        let wide = graph.render((0..<5000).map { (["root", "leaf\($0)"], 1) }, id: "wide", label: "wide")
        #expect(try Self.parse(wide).filter { $0 == "rect" }.count == graph.maxFrames)
    }

    @Test func textAndMarkdownListTheGroups() throws {
        let summary = Self.summary(try Self.inspections())
        let text = FleetReportTextRenderer.text(summary)
        #expect(text.contains("Hang groups by main-thread stack"))
        #expect(text.contains("KestrelCore`FeedStore.loadLatest(limit:) ← Kestrel`FeedViewController.viewDidLoad()"))
        let markdown = FleetReportTextRenderer.markdown(summary)
        #expect(markdown.contains("| COUNT | VERDICT | APP | VERSIONS | SOURCES | MAIN-THREAD STACK | EXAMPLE |"))
        #expect(
            markdown.contains("| 3 | synchronousFileOrDatabaseIO | net.fernhollow.kestrel | 3.1.8 (2), 3.1.9 (1) |")
        )
        let json = try JSONOutput.encode(summary, pretty: false)
        #expect(json.contains(#""bySource":{"appStoreConnect":"#))
    }

    /// The element names of `svg` in document order; throws when it is not well-formed XML.
    static func parse(_ svg: String) throws -> [String] {
        final class Names: NSObject, XMLParserDelegate {
            var names: [String] = []
            func parser(
                _ parser: XMLParser,
                didStartElement elementName: String,
                namespaceURI: String?,
                qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                names.append(elementName)
            }
        }
        let parser = XMLParser(data: Data(svg.utf8))
        parser.shouldResolveExternalEntities = false
        let names = Names()
        parser.delegate = names
        guard parser.parse() else {
            throw InputError(.unreadable, "not well-formed: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        return names.names
    }
}
