import APMInspectCore
import FleetReport
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import Testing

/// Resource kills in `report`: Apple's resource reports (142, 145, 202, 206) and EXC_RESOURCE crash reports grouped
/// by kind and heaviest stack, counted per version, in every format and from NDJSON alike.
///
/// `Corpus/system`'s 145, 202 and 206 and `Corpus/crash`'s EXC_RESOURCE report, with three crafted copies: the 206
/// of a later version (4.2.0, same stack), the same 206 symbolicated, and the 202 made a 142 wakeups report (its
/// `Event` and figures the wakeups ones).
@Suite struct ResourceKillGroupsTests {
    static let fatal = "Corpus/system/ios26.2_206_cpu_usage_fatal_nightjar_process_killed.ips"
    static let warning = "Corpus/system/ios26.2_202_cpu_usage_nightjar_action_none.ips"
    static let disk = "Corpus/system/ios26.2_145_disk_writes_photoindexd_action_none.ips"
    static let excResource = "Corpus/crash/ios13.3.1_text_exc_resource_cpu_non_fatal_thread_attributed.crash"

    static func text(_ path: String) throws -> String {
        String(
            decoding: try FileReading.contents(atPath: FuzzReplayInputs.root.appendingPathComponent(path).path),
            as: UTF8.self
        )
    }

    static func replacing(_ text: String, _ pairs: [(String, String)]) -> [UInt8] {
        var text = text
        for (old, new) in pairs { text = text.replacingOccurrences(of: old, with: new) }
        return Array(text.utf8)
    }

    static func inputs() throws -> [(path: String, bytes: [UInt8])] {
        let fatal = try text(Self.fatal)
        let warning = try text(Self.warning)
        return [
            (Self.fatal, Array(fatal.utf8)),
            (
                "crafted/206-nightjar-4.2.0.ips",
                replacing(
                    fatal,
                    [
                        ("\"app_version\":\"4.1.0\"", "\"app_version\":\"4.2.0\""), ("4.1.0 (812)", "4.2.0 (840)"),
                        ("2E7C0B95-D14A-4F63-8A2E-59C1F07B3D68", "6A1D3F80-2B5C-4E97-9D14-80C2E5A7B3F6"),
                    ]
                )
            ),
            (
                "crafted/206-nightjar-symbolicated.ips",
                replacing(
                    fatal,
                    [
                        ("??? (Nightjar + 1297112)", "-[NJTileRenderer renderTile:] + 120 (Nightjar + 1297112)"),
                        ("2E7C0B95-D14A-4F63-8A2E-59C1F07B3D68", "C3E58A14-7D20-4B6F-A91E-52F0D8B6C437"),
                    ]
                )
            ),
            (Self.warning, Array(warning.utf8)),
            (
                "crafted/142-nightjar-wakeups.ips",
                replacing(
                    warning,
                    [
                        ("\"bug_type\":\"202\"", "\"bug_type\":\"142\""),
                        ("Event:            cpu usage", "Event:            wakeups"),
                        (
                            "CPU:              144 seconds cpu time over 177 seconds (81% cpu average), exceeding limit of 80% cpu over 180 seconds",
                            "Wakeups:          45001 wakeups over the last 177 seconds (254 wakeups per second average), exceeding limit of 150 wakeups per second over 300 seconds"
                        ),
                        ("CPU limit:        144s", "Wakeups limit:    45000"),
                        ("CPU used:         144s", "Wakeups caused:   45001"),
                        ("CPU duration:     177s", "Wakeups duration: 177s"),
                        ("B81F4D2C-6E03-4A95-9C7B-13E0A8D6F254", "95C0E7A2-3B18-4D6F-8E41-A7D2C9F05B13"),
                    ]
                )
            ),
            (Self.disk, Array(try text(Self.disk).utf8)),
            (Self.excResource, Array(try text(Self.excResource).utf8)),
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

    @Test func groupsByKindAndHeaviestStackCountedPerVersion() throws {
        let inspections = try Self.inspections()
        #expect(inspections.allSatisfy { $0.failure == nil })
        #expect(inspections[4].kind == .resourceReport)
        let kills = Self.summary(inspections).resourceKills
        #expect(kills.total == 7 && kills.fatal == 3)
        #expect(kills.byKind == ["cpu": 5, "wakeups": 1, "diskWrites": 1])
        #expect(kills.groups.count == 6 && kills.ungrouped == 0)

        // The 206 of two versions: one group, counted per version; its frames from the innermost app frame.
        let killed = try #require(kills.groups.first)
        #expect(killed.kind == "cpu" && killed.count == 2 && killed.fatal == 2)
        #expect(killed.byVersion.values.map(\.value) == ["4.1.0", "4.2.0"])
        #expect(killed.byVersion.values.map(\.count) == [1, 1])
        #expect(killed.sources == ["resourceReport": 2] && killed.bugTypes == ["206": 2])
        #expect(killed.app == "com.example.nightjar")
        #expect(
            killed.frames == [
                "Nightjar + 1297112", "Nightjar + 1296708", "Nightjar + 1280412", "libsystem_pthread.dylib + 7012",
            ]
        )
        #expect(
            killed.files == [
                "Corpus/system/ios26.2_206_cpu_usage_fatal_nightjar_process_killed.ips",
                "crafted/206-nightjar-4.2.0.ips",
            ]
        )

        // Symbolicated, the same stack names its frame by symbol: a group of its own.
        let symbolicated = try #require(kills.groups.first { $0.files == ["crafted/206-nightjar-symbolicated.ips"] })
        #expect(symbolicated.frames.first == "Nightjar`-[NJTileRenderer renderTile:] + 120")

        // The 202 warning's innermost frame is libswiftCore's: its group starts at the app's frame.
        let cpuWarning = try #require(kills.groups.first { $0.bugTypes == ["202": 1] })
        #expect(cpuWarning.fatal == 0 && cpuWarning.frames.first == "Nightjar + 1311840")
        #expect(cpuWarning.signature.hasPrefix("Nightjar + 1311840 ← Nightjar + 1280412 ← libdispatch.dylib"))
        let wakeups = try #require(kills.groups.first { $0.kind == "wakeups" })
        #expect(wakeups.bugTypes == ["142": 1] && wakeups.frames == cpuWarning.frames)
        let writes = try #require(kills.groups.first { $0.kind == "diskWrites" })
        #expect(writes.byVersion.values.map(\.value) == ["?"] && writes.app == "photoindexd" && writes.fatal == 0)

        // The EXC_RESOURCE crash report: grouped on its signature's frames, not fatal, a crash report's source.
        let exception = try #require(kills.groups.first { $0.sources == ["crashReport": 1] })
        #expect(exception.kind == "cpu" && exception.fatal == 0 && exception.count == 1)
        #expect(exception.frames.first == "Trailmix`TrackSimplifier.perpendicularDistance(_:from:to:)")
        #expect(exception.byVersion.values.map(\.value) == ["5.0.2"])
    }

    @Test func theNDJSONOfAScanGivesTheSameGroups() throws {
        let inspections = try Self.inspections()
        var replayed = FleetAggregator()
        for inspection in inspections {
            let line = try JSONOutput.encode(inspection, pretty: false)
            replayed.add(try FleetEnvelope.decode(line: Array(line.utf8)), fromNDJSON: true)
        }
        let direct = Self.summary(inspections).resourceKills
        #expect(replayed.summary().resourceKills == direct)
        #expect(direct.groups.count == 6)
    }

    @Test func everyFormatShowsTheGroups() throws {
        let summary = Self.summary(try Self.inspections())
        let text = FleetReportTextRenderer.text(summary)
        #expect(text.contains("Resource kills and warnings by heaviest stack"))
        #expect(text.contains("7 report(s), 3 fatal: cpu 5, diskWrites 1, wakeups 1"))
        #expect(text.contains("4.1.0 (1), 4.2.0 (1)"))
        let markdown = FleetReportTextRenderer.markdown(summary)
        #expect(markdown.contains("| 2 | 2 | cpu | com.example.nightjar | 4.1.0 (1), 4.2.0 (1) | resourceReport 2 |"))
        let page = FleetReportHTMLRenderer.render(summary)
        #expect(page.contains("<tr class=\"resource-row\" data-kind=\"cpu\" data-count=\"2\" data-fatal=\"2\">"))
        #expect(page.contains("<code>Nightjar`-[NJTileRenderer renderTile:] + 120</code>"))
        let json = try JSONOutput.encode(summary, pretty: false)
        #expect(json.contains(#""resourceKills":{"byKind":{"cpu":5,"diskWrites":1,"wakeups":1},"fatal":3,"#))
    }
}
