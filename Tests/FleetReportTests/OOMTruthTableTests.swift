import APMInspectCore
import FleetReport
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import Testing

/// The OOM truth table of `report`: each row's confirmed and inferred OOMs and other terminations, with their
/// sources, from crafted JetsamEvents tied to app versions by binary UUID or by name, MetricKit payloads, a KSCrash
/// memory termination and an Apple watchdog report.
///
/// The crash reports of Harbor are `Corpus/crash`'s 309 report (version 3.4.0 on an iPhone15,3, main binary UUID
/// `ba653f7d-…`), and a copy of it made version 3.3.0 on an iPhone12,1 a week earlier with another UUID. The
/// JetsamEvents are written by `JetsamFixture` in the shape iOS 17 writes (header line, body with `product`,
/// `pageSize`, `processes`), every value invented.
@Suite struct OOMTruthTableTests {
    static let harbor = "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"
    static let harborUUID = "ba653f7d-d052-38f8-babe-c9cb4861dd33"
    static let olderUUID = "7e2c41d0-9b3a-3c55-8f1e-2a6b0c9d4e17"

    static func corpus(_ path: String) throws -> [UInt8] {
        try FileReading.contents(atPath: FuzzReplayInputs.root.appendingPathComponent(path).path)
    }

    /// A JetsamEvent as iOS 17 writes one (``JetsamFixture``: page size 16 KiB).
    static func jetsam(incident: String, product: String, date: String, entries: [Entry]) -> [UInt8] {
        JetsamFixture.report(entries, incident: incident, product: product, date: date)
    }

    typealias Entry = JetsamFixture.Entry

    static func entry(_ name: String, uuid: String?, reason: String?, rpages: Int, states: [String]) -> Entry {
        Entry(name, states: states, reason: reason, rpages: rpages, uuid: uuid)
    }

    static let daemon = Entry.idleDaemon("mediaserverd")

    /// Every input, by the path it is shown as.
    static func inputs() throws -> [(path: String, bytes: [UInt8])] {
        let harbor = try corpus(Self.harbor)
        var older = String(decoding: harbor, as: UTF8.self)
        for (old, new) in [
            ("\"3.4.0\"", "\"3.3.0\""), (harborUUID, olderUUID), ("iPhone15,3", "iPhone12,1"),
            ("2024-01-18", "2024-01-10"),
            ("89EA024E-56BA-4C8D-909D-F6740E7CAF7D", "0C7D3E21-8B44-4F0A-9E55-61A2B7C8D903"),
        ] {
            older = older.replacingOccurrences(of: old, with: new)
        }
        let atLimitHere = jetsam(
            incident: "5D0B6A7E-2C1F-4E8B-9A3D-7F6E5C4B3A21",
            product: "iPhone15,3",
            date: "2024-01-19 09:12:40",
            entries: [
                entry(
                    "Harbor",
                    uuid: harborUUID,
                    reason: "per-process-limit",
                    rpages: 184_320,
                    states: ["frontmost", "resume"]
                ),
                daemon,
            ]
        )
        return [
            (Self.harbor, harbor),
            ("crafted/harbor-3.3.0.ips", Array(older.utf8)),
            // Linked by UUID to 3.4.0: the app at its limit (confirmed); the copy `.synced` is the same incident.
            ("crafted/JetsamEvent-2024-01-19.ips", atLimitHere),
            ("crafted/JetsamEvent-2024-01-19.ips.synced", atLimitHere),
            // A build no report lists (another UUID): linked by name to 3.3.0, reported on the same model a day before.
            (
                "crafted/JetsamEvent-2024-01-11.ips",
                jetsam(
                    incident: "A41F6C02-77B3-4D1E-8C5A-0B9E2D3F4A65",
                    product: "iPhone12,1",
                    date: "2024-01-11 18:03:11",
                    entries: [
                        entry(
                            "Harbor",
                            uuid: "d4c3b2a1-6e5f-4a0b-8c7d-1e2f3a4b5c6d",
                            reason: "per-process-limit",
                            rpages: 129_024,
                            states: ["frontmost", "resume"]
                        ),
                        daemon,
                    ]
                )
            ),
            // Memory pressure: Harbor in the background (UUID of 3.4.0: another termination), another app (tied to
            // no report: left out) and a daemon (never counted).
            (
                "crafted/JetsamEvent-2024-01-20.ips",
                jetsam(
                    incident: "E93A1B57-0F2C-4B8D-A6E4-3C5D7F9B1A20",
                    product: "iPhone15,3",
                    date: "2024-01-20 22:41:05",
                    entries: [
                        entry(
                            "Harbor",
                            uuid: harborUUID,
                            reason: "vm-pageshortage",
                            rpages: 20_480,
                            states: ["suspended"]
                        ),
                        entry(
                            "Tilemaker",
                            uuid: "61f0e2d3-c4b5-4a69-8877-665544332211",
                            reason: "vm-pageshortage",
                            rpages: 30_000,
                            states: ["suspended"]
                        ),
                        entry(
                            "photoanalysisd",
                            uuid: nil,
                            reason: "idle-exit",
                            rpages: 3000,
                            states: ["daemon"]
                        ),
                    ]
                )
            ),
            // No UUID, and no report from that model: confirmed, version unknown.
            (
                "crafted/JetsamEvent-2024-03-02.ips",
                jetsam(
                    incident: "7B2E9D40-5A13-4C6F-B0E8-2D4F6A8C0E19",
                    product: "iPhone8,1",
                    date: "2024-03-02 07:30:00",
                    entries: [
                        entry(
                            "Harbor",
                            uuid: nil,
                            reason: "per-process-limit",
                            rpages: 90_000,
                            states: ["frontmost"]
                        ),
                        daemon,
                    ]
                )
            ),
            (
                "Corpus/metrickit/ios27.0_diagnostic_report_memory_exception.json",
                try corpus("Corpus/metrickit/ios27.0_diagnostic_report_memory_exception.json")
            ),
            (
                "Corpus/metrickit/ios16.7.2_metric_payload_older_version.json",
                try corpus("Corpus/metrickit/ios16.7.2_metric_payload_older_version.json")
            ),
            (
                "Corpus/kscrash/v3.9.0_ios18.2_arm64_termination_memory_limit.json",
                try corpus("Corpus/kscrash/v3.9.0_ios18.2_arm64_termination_memory_limit.json")
            ),
            (
                "Corpus/watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips",
                try corpus("Corpus/watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips")
            ),
        ]
    }

    static func inspections() throws -> [Inspection] {
        try inputs().map { ReportInspector().inspect(bytes: $0.bytes, path: $0.path) }
    }

    static func summary(_ inspections: [Inspection]) -> FleetSummary {
        var aggregator = FleetAggregator()
        for inspection in inspections { aggregator.add(inspection.fleetEvent) }
        return aggregator.summary()
    }

    static func row(
        _ summary: FleetSummary,
        _ app: String,
        _ version: String,
        _ device: String
    ) throws -> FleetSummary.OOMTruthRow {
        try #require(
            summary.oom.byVersionAndDevice.first { $0.app == app && $0.version == version && $0.device == device }
        )
    }

    @Test func everyRowCountsItsEvidenceWithItsSources() throws {
        let inspections = try Self.inspections()
        #expect(inspections.allSatisfy { $0.failure == nil })
        let summary = Self.summary(inspections)
        let table = summary.oom.byVersionAndDevice
        #expect(table.count == 7)

        // Tied by UUID: at its limit (confirmed), and killed under memory pressure (another termination).
        let byUUID = try Self.row(summary, "io.tidewater.harbor", "3.4.0", "iPhone15,3")
        #expect(byUUID.confirmed.count == 1 && byUUID.confirmed.sources == ["jetsamEvent": 1])
        #expect(byUUID.otherTerminations.count == 1 && byUUID.otherTerminations.sources == ["jetsamEvent": 1])
        #expect(byUUID.inferred.count == 0 && byUUID.inferred.sources.isEmpty)
        #expect(byUUID.jetsamLinks.uuid == 2 && byUUID.jetsamLinks.name == 0 && byUUID.jetsamLinks.none == 0)
        // 184,320 pages of 16 KiB: the iPhone15,3's app limit.
        #expect(byUUID.memoryLimitMB == 2880)

        // Tied by name: 3.3.0 was reported on an iPhone12,1 the day before.
        let byName = try Self.row(summary, "io.tidewater.harbor", "3.3.0", "iPhone12,1")
        #expect(byName.confirmed.count == 1 && byName.confirmed.sources == ["jetsamEvent": 1])
        #expect(byName.jetsamLinks.name == 1 && byName.jetsamLinks.uuid == 0)
        #expect(byName.otherTerminations.count == 0 && byName.memoryLimitMB == 2016)

        // Tied to nothing: the process name, version unknown.
        let unlinked = try Self.row(summary, "Harbor", "?", "iPhone8,1")
        #expect(unlinked.confirmed.count == 1 && unlinked.jetsamLinks.none == 1)
        #expect(unlinked.memoryLimitMB == 1406)

        // MetricKit: a memory exception (confirmed), memory-limit exits (inferred: 4 background + 2 foreground)
        // beside the other termination exits (31 memory pressure, 6 task assertion timeouts, 3 watchdog, 2 CPU).
        let exception = try Self.row(summary, "com.example.fernway", "4.0.0", "iPhone17,1")
        #expect(exception.confirmed.count == 1 && exception.confirmed.sources == ["metrickit": 1])
        #expect(exception.inferred.count == 0 && exception.otherTerminations.count == 0)
        let exits = try Self.row(summary, "com.example.fernway", "3.1.4", "iPhone12,1")
        #expect(exits.confirmed.count == 0)
        #expect(exits.inferred.count == 6 && exits.inferred.sources == ["metrickit": 6])
        #expect(exits.otherTerminations.count == 42 && exits.otherTerminations.sources == ["metrickit": 42])

        // A crash reporter's OOM without OS evidence, and an Apple watchdog kill.
        let sdk = try Self.row(summary, "net.fernhollow.kestrel", "3.1.8", "iPhone16,1")
        #expect(sdk.inferred.count == 1 && sdk.inferred.sources == ["kscrash": 1] && sdk.confirmed.count == 0)
        let watchdog = try Self.row(summary, "com.example.pixelia", "3.4.0", "iPhone14,5")
        #expect(watchdog.otherTerminations.sources == ["watchdogTermination": 1] && watchdog.confirmed.count == 0)

        // Tilemaker, killed under pressure and tied to no report, is in no row; the daemons never are.
        #expect(summary.oom.unlinkedKills == 1)
        #expect(!table.contains { $0.app == "Tilemaker" || $0.app == "photoanalysisd" || $0.app == "mediaserverd" })
        #expect(summary.oom.byVersionAndDeviceUngrouped == 0)
        // The copy of a JetsamEvent (`.synced`) counts once.
        #expect(summary.oom.events == 4)
    }

    @Test func theNDJSONOfAScanGivesTheSameTable() throws {
        let inspections = try Self.inspections()
        var replayed = FleetAggregator()
        for inspection in inspections {
            let line = try JSONOutput.encode(inspection, pretty: false)
            replayed.add(try FleetEnvelope.decode(line: Array(line.utf8)), fromNDJSON: true)
        }
        let direct = Self.summary(inspections)
        let fromNDJSON = replayed.summary()
        #expect(fromNDJSON.inputs.ndjsonEnvelopes == inspections.count)
        #expect(fromNDJSON.oom == direct.oom)
        #expect(fromNDJSON.oom.byVersionAndDevice.count == 7)
        #expect(fromNDJSON.resourceKills == direct.resourceKills)
    }

    @Test func theTableDoesNotDependOnTheOrderOfReports() throws {
        let inspections = try Self.inspections()
        let forward = Self.summary(inspections)
        // The JetsamEvents first: they are tied to versions only once every report is read.
        let backward = Self.summary(inspections.reversed())
        #expect(forward.oom.byVersionAndDevice == backward.oom.byVersionAndDevice)
        #expect(forward.oom.unlinkedKills == backward.oom.unlinkedKills)
    }

    @Test func aKillFarFromTheAppsReportsIsNotTiedByName() throws {
        var inputs = try Self.inputs().filter { !$0.path.contains("2024-01-11") }
        inputs.append(
            (
                "crafted/JetsamEvent-2024-02-11.ips",
                Self.jetsam(
                    incident: "B52D8E13-9C04-4A7F-8E26-3F1A5C7D9B08",
                    product: "iPhone12,1",
                    date: "2024-02-11 18:03:11",
                    entries: [
                        Self.entry(
                            "Harbor",
                            uuid: nil,
                            reason: "per-process-limit",
                            rpages: 129_024,
                            states: ["frontmost"]
                        )
                    ]
                )
            )
        )
        let summary = Self.summary(inputs.map { ReportInspector().inspect(bytes: $0.bytes, path: $0.path) })
        // A month after 3.3.0's report on that model: past the week, so its version stays unknown.
        let row = try Self.row(summary, "Harbor", "?", "iPhone12,1")
        #expect(row.confirmed.count == 1 && row.jetsamLinks.none == 1)
        #expect(!summary.oom.byVersionAndDevice.contains { $0.version == "3.3.0" })
    }

    @Test func everyFormatShowsTheTable() throws {
        let summary = Self.summary(try Self.inspections())
        let text = FleetReportTextRenderer.text(summary)
        #expect(text.contains("OOM truth table"))
        #expect(text.contains("1 (jetsamEvent 1)"))
        #expect(text.contains("6 (metrickit 6)"))
        #expect(text.contains("uuid 2"))
        let markdown = FleetReportTextRenderer.markdown(summary)
        #expect(markdown.contains("## OOM truth table"))
        #expect(markdown.contains("| io.tidewater.harbor | 3.3.0 | iPhone12,1 | 1 (jetsamEvent 1) |"))
        let page = FleetReportHTMLRenderer.render(summary)
        #expect(page.contains("<table id=\"oom-truth\""))
        #expect(
            page.contains(
                "data-app=\"io.tidewater.harbor\" data-version=\"3.4.0\" data-device=\"iPhone15,3\" data-confirmed=\"1\" data-inferred=\"0\" data-other=\"1\""
            )
        )
        let json = try JSONOutput.encode(summary, pretty: false)
        #expect(json.contains(#""byVersionAndDevice":[{"app":"#))
        #expect(json.contains(#""jetsamLinks":{"name":1,"none":0,"uuid":0}"#))
    }

    /// The app's binary UUID is found in Apple's, KSCrash's and MetricKit's images alike: what a JetsamEvent's kill
    /// is tied by.
    @Test func crashReportsOfEverySourceNameTheAppBinaryUUID() throws {
        func uuid(_ path: String) throws -> String? {
            let event = ReportInspector().inspect(bytes: try Self.corpus(path), path: path).fleetEvent
            return event.crashes.first?.context.binaryUUID
        }
        #expect(try uuid(Self.harbor) == "ba653f7dd05238f8babec9cb4861dd33")
        #expect(
            try uuid("Corpus/kscrash/v3.1.0_ios16.6_arm64_nsexception_unrecognized_selector.json")
                == "8e1b2c440d5a3f619c772a4e6b8d1f03"
        )
        #expect(
            try uuid("Corpus/metrickit/ios17.5_crash_objc_exception_nsrangeexception.json")
                == "4f0c2a917b3d3e5a9c112d8e6b40a7f3"
        )
        #expect(
            try uuid("Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash")
                == "d61e2520a303382fb51d1d5d1c045cb6"
        )
    }

    /// A MetricKit diagnostic's call tree names the app's executable (the binary dyld's `start` called): a
    /// JetsamEvent's kill with its UUID is tied to the payload's version, though MetricKit names no process.
    @Test func aMetricKitCallTreeTiesAKillByUUID() throws {
        let hangs = "Corpus/metrickit/ios16.4.1_two_payloads_hangs_per_thread_tree.json"
        let kill = Self.jetsam(
            incident: "D7E3A0B9-41C2-4F85-9B6E-0A2C4E6F8B13",
            product: "iPhone14,5",
            date: "2024-04-02 12:00:00",
            entries: [
                Self.entry(
                    "Fernway",
                    uuid: "4f0c2a91-7b3d-3e5a-9c11-2d8e6b40a7f3",
                    reason: "per-process-limit",
                    rpages: 184_320,
                    states: ["frontmost"]
                )
            ]
        )
        let inspector = ReportInspector()
        let figures = inspector.inspect(bytes: try Self.corpus(hangs), path: hangs).fleetEvent.metricKit
        #expect(figures.map(\.binaryUUID) == ["4f0c2a917b3d3e5a9c112d8e6b40a7f3"])
        var aggregator = FleetAggregator()
        aggregator.add(inspector.inspect(bytes: kill, path: "crafted/JetsamEvent-fernway.ips").fleetEvent)
        aggregator.add(inspector.inspect(bytes: try Self.corpus(hangs), path: hangs).fleetEvent)
        let row = try Self.row(aggregator.summary(), "com.example.fernway", "3.2.0", "iPhone14,5")
        #expect(row.confirmed.sources == ["jetsamEvent": 1] && row.jetsamLinks.uuid == 1)
    }
}
