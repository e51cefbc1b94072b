import APMInspectCore
import FleetReport
import Foundation
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import Testing

/// `report` counts crashes, hangs, watchdog terminations, OOMs, resource kills and profiles apart: a KSCrash hang,
/// watchdog kill, profile and memory termination are none of them a crash.
@Suite struct FleetCategoryTests {
    static let kscrash = [
        "v3.7.0_ios18.2_arm64_hang_recovered_sqlite_main_thread.json",
        "v3.7.0_ios18.2_arm64_watchdog_0x8badf00d_launch_hang.json",
        "v3.7.0_ios18.2_arm64_profile_startup_samples.json",
        "v3.9.0_ios18.2_arm64_termination_memory_limit.json",
        "v3.1.0_ios16.6_arm64_nsexception_unrecognized_selector.json",
    ]

    static func summary() -> FleetSummary {
        var aggregator = FleetAggregator()
        for name in kscrash {
            let path = FuzzReplayInputs.root.appendingPathComponent("Corpus/kscrash/\(name)").path
            aggregator.add(ReportInspector().inspect(path: path).fleetEvent)
        }
        return aggregator.summary()
    }

    @Test func eachKSCrashKindIsCountedInItsOwnCategory() {
        let summary = Self.summary()
        #expect(summary.categories.crashes == 1)
        #expect(summary.crashes.total == 1)
        #expect(summary.categories.hangs == 1)
        #expect(summary.categories.watchdogTerminations == 1)
        #expect(summary.watchdog.total == 1)
        #expect(summary.watchdog.rows.first?.reason.hasPrefix("watchdogTimeout 0x8badf00d") == true)
        #expect(summary.categories.outOfMemory == 1)
        #expect(summary.categories.profiles == 1)
        #expect(summary.categories.resourceKills == 0)
        #expect(summary.hangs.total == 1)
        #expect(summary.hangs.recovered == 1)
        #expect(summary.hangs.longestSeconds == 2.750626875)
    }

    @Test func everyFormatShowsTheCategories() throws {
        let summary = Self.summary()
        let json = try SortedJSONEncoder().encode(summary)
        #expect(json.contains(#""categories":{"crashes":1,"hangs":1,"outOfMemory":1,"profiles":1,"#))
        let text = FleetReportTextRenderer.text(summary)
        #expect(text.contains("Reports by kind"))
        #expect(text.contains("1 hang(s), 1 recovered"))
        let markdown = FleetReportTextRenderer.markdown(summary)
        #expect(markdown.contains("Profiles"))
        let html = FleetReportHTMLRenderer.render(summary)
        #expect(html.contains(#"<tr id="kind-hangs" data-count="1">"#))
        #expect(html.contains(#"<tr id="kind-watchdog-terminations" data-count="1">"#))
    }

    @Test func resourceKillsAreCountedApartFromWatchdogTerminations() {
        var aggregator = FleetAggregator()
        let context = FleetEvent.Context(bundleId: "a", appVersion: "1")
        var cpu = FleetEvent(file: "cpu.json", kind: "kscrash")
        cpu.watchdog = FleetEvent.Watchdog(
            reason: "resourcePressure",
            verdict: nil,
            context: context,
            category: .resourceKill
        )
        var hang = FleetEvent(file: "hang.json", kind: "kscrash")
        hang.occurrence = FleetEvent.Occurrence(category: .hang, hangSeconds: -3, recovered: false, context: context)
        aggregator.add(cpu)
        aggregator.add(hang)
        let summary = aggregator.summary()
        #expect(summary.categories.resourceKills == 1)
        #expect(summary.categories.watchdogTerminations == 0)
        #expect(summary.watchdog.total == 1)
        #expect(summary.categories.hangs == 1)
        // A negative length is no measurement.
        #expect(summary.hangs.measured == 0)
        #expect(summary.hangs.recovered == 0)
    }

    @Test func filtersLeaveOutOccurrencesOfOtherApps() {
        var aggregator = FleetAggregator(filter: FleetFilter(app: "b"))
        var hang = FleetEvent(file: "hang.json", kind: "kscrash")
        hang.occurrence = FleetEvent.Occurrence(category: .hang, context: FleetEvent.Context(bundleId: "a"))
        aggregator.add(hang)
        let summary = aggregator.summary()
        #expect(summary.categories.hangs == 0)
        #expect(summary.inputs.excluded == 1)
    }
}
