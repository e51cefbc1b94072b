import APMInspectCore
import FleetReport
import Foundation
import FuzzReplaySupport
import JetsamParsing
import ReportInspection
import ReportRendering
import Testing

@testable import apm_inspect

/// A Jetsam kill of daemons alone is not the app's OOM; Apple's resource reports and 409 have their own counts;
/// `--app` keeps a JetsamEvent where the app was killed or on screen.
@Suite struct FleetSystemKindsTests {
    static func jetsam(_ entries: [JetsamFixture.Entry], incident: String) throws -> FleetEvent.OOM {
        let event = try #require(try JetsamParser().parse(JetsamFixture.report(entries, incident: incident)).event)
        return FleetEvent.oom(event, contentHash: nil, file: "JetsamEvent-\(incident).ips")
    }

    static let daemonKilled: [JetsamFixture.Entry] = [
        .frontmostApp("SnapCollage"), .idleDaemon("financed", reason: "per-process-limit"),
    ]
    static let appKilled: [JetsamFixture.Entry] = [
        .idleDaemon("financed"), .frontmostApp("SnapCollage", reason: "per-process-limit"),
    ]

    static func summary(_ filter: FleetFilter = FleetFilter()) throws -> FleetSummary {
        var aggregator = FleetAggregator(filter: filter)
        var event = FleetEvent(file: "a.ips", kind: FileKind.jetsamEvent.rawValue)
        event.oom = try jetsam(daemonKilled, incident: "0A1B2C3D-0000-4000-8000-000000000001")
        aggregator.add(event)
        event.oom = try jetsam(appKilled, incident: "0A1B2C3D-0000-4000-8000-000000000002")
        aggregator.add(event)
        event.oom = try jetsam(
            [.idleDaemon("financed", reason: "vm-pageshortage"), .frontmostApp("Notes")],
            incident: "0A1B2C3D-0000-4000-8000-000000000003"
        )
        aggregator.add(event)
        return aggregator.summary()
    }

    @Test func aDaemonKillIsASystemMemoryKillNotTheAppsOOM() throws {
        let summary = try Self.summary()
        #expect(summary.categories.outOfMemory == 1)
        #expect(summary.categories.systemMemoryKills == 2)
        // The memory limits still use every kill.
        #expect(summary.oom.events == 3)
    }

    @Test func appKeepsAJetsamEventWhereTheAppWasKilledOrFrontmost() throws {
        let summary = try Self.summary(FleetFilter(apps: ["SnapCollage"]))
        #expect(summary.oom.events == 2)
        #expect(summary.inputs.excluded == 1)
        let two = try Self.summary(FleetFilter(apps: ["SnapCollage", "Notes"]))
        #expect(two.oom.events == 3)
        #expect(two.inputs.excluded == 0)
    }

    @Test func resourceReportsAndSystemWatchdogsHaveTheirOwnCategories() {
        var aggregator = FleetAggregator()
        let files = try? FileManager.default.contentsOfDirectory(
            atPath: FuzzReplayInputs.root.appendingPathComponent("Corpus/system").path
        )
        let reports = (files ?? []).filter { $0.hasSuffix(".ips") }.sorted()
        #expect(reports.count == 5)
        for name in reports {
            let path = FuzzReplayInputs.root.appendingPathComponent("Corpus/system/\(name)").path
            aggregator.add(ReportInspector().inspect(path: path).fleetEvent)
        }
        let categories = aggregator.summary().categories
        #expect(categories.resourceKills == 1)
        #expect(categories.resourceWarnings == 2)
        #expect(categories.systemWatchdogs == 2)
        #expect(categories.watchdogTerminations == 0)
        #expect(categories.crashes == 0)
    }

    @Test func appSelectionKeepsTheJetsamEventOfAFrontmostApp() throws {
        let selection = try #require(AppSelection(apps: ["SnapCollage"]))
        let inspector = ReportInspector()
        let daemon = inspector.inspect(bytes: JetsamFixture.report(Self.daemonKilled), path: "JetsamEvent-1.ips")
        #expect(selection.keeps(daemon))
        let other = try #require(AppSelection(apps: ["com.example.Other"]))
        #expect(!other.keeps(daemon))
        #expect(AppSelection(apps: []) == nil)
    }
}
