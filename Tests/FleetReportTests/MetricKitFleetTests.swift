import APMInspectCore
import FleetReport
import Foundation
import FuzzReplaySupport
import MetricKitParsing
import ReportInspection
import ReportRendering
import Testing

/// The MetricKit fleet view `scan` prints and `report` includes: exits summed by reason, hang rate and time to
/// first draw per version and device type, capped tables, and the memory kills beside the JetsamEvents.
@Suite struct MetricKitFleetTests {
    static let newer = "Corpus/metrickit/ios17.4_metric_payload.json"
    static let older = "Corpus/metrickit/ios16.7.2_metric_payload_older_version.json"

    static func report(_ path: String) throws -> MetricKitReport {
        let bytes = try FileReading.contents(atPath: FuzzReplayInputs.root.appendingPathComponent(path).path)
        return try MetricKitReader().read(bytes).report
    }

    /// Exit counts by `foreground.reason` straight from the raw JSON, without the reader.
    static func rawExits(_ path: String) throws -> [String: Int64] {
        let data = try Data(contentsOf: FuzzReplayInputs.root.appendingPathComponent(path))
        let payloads = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        var exits: [String: Int64] = [:]
        for payload in payloads {
            let metrics = try #require(payload["applicationExitMetrics"] as? [String: Any])
            for (state, key) in [("foreground", "foregroundExitData"), ("background", "backgroundExitData")] {
                let data = try #require(metrics[key] as? [String: Any])
                for (name, value) in data {
                    let count = try #require(value as? NSNumber).int64Value
                    exits["\(state).\(name)", default: 0] += count
                }
            }
        }
        return exits
    }

    static func fleet(_ paths: [String]) throws -> MetricKitFleetSummary {
        var fleet = MetricKitFleet()
        for path in paths {
            for figures in FleetEvent.metricKitFigures(try report(path)) { fleet.add(figures) }
        }
        return fleet.summary()
    }

    /// The raw key of each reason the summary names (`cPUResourceLimit` is `cumulativeCPUResourceLimitExitCount`).
    static func rawKey(_ reason: String) -> String {
        let known = [
            "normal": "cumulativeNormalAppExitCount", "abnormal": "cumulativeAbnormalExitCount",
            "watchdog": "cumulativeAppWatchdogExitCount",
        ]
        if let key = known[reason] { return key }
        return "cumulative" + reason.prefix(1).uppercased() + reason.dropFirst() + "ExitCount"
    }

    @Test func exitsByReasonAreTheSumsOfTheRawJSON() throws {
        let summary = try Self.fleet([Self.newer, Self.older])
        var raw = try Self.rawExits(Self.newer)
        for (key, count) in try Self.rawExits(Self.older) { raw[key, default: 0] += count }
        #expect(summary.metricPayloads == 2)
        var seen = 0
        for row in summary.exits {
            let key = Self.rawKey(row.reason)
            #expect(row.foreground == raw["foreground.\(key)"] ?? 0, "\(row.reason)")
            #expect(row.background == raw["background.\(key)"] ?? 0, "\(row.reason)")
            seen += (raw["foreground.\(key)"] != nil ? 1 : 0) + (raw["background.\(key)"] != nil ? 1 : 0)
        }
        #expect(seen == raw.count)
        let memoryPressure = try #require(summary.exits.first { $0.reason == "memoryPressure" })
        #expect(memoryPressure.label == "memory pressure")
        #expect(memoryPressure.background == 53)
        // MetricKit's order: normal first, CPU limit after memory.
        #expect(summary.exits.map(\.reason).prefix(4) == ["normal", "abnormal", "watchdog", "memoryResourceLimit"])
    }

    @Test func hangRateAndLaunchPercentilesPerVersionAndDevice() throws {
        let summary = try Self.fleet([Self.newer, Self.older])
        #expect(summary.byVersion.map(\.name) == ["3.2.0", "3.1.4"])
        #expect(summary.byDevice.map(\.name) == ["iPhone12,1", "iPhone15,3"])
        let older = try #require(summary.byVersion.last)
        // Hang buckets at their midpoints: 10 × 0.125 + 8 × 0.625 + 4 × 2 = 14.25 s in one foreground hour.
        #expect(older.hangSeconds == 14.25)
        #expect(older.foregroundSeconds == 3600)
        #expect(older.hangRate == 14.25)
        // 20 launches: the 10th is 2/9 into 800–1,200 ms, the 18th 1/3 into 1,200–2,000 ms.
        let launch = try #require(older.launch)
        #expect(launch.count == 20)
        #expect(launch.p50Seconds == 0.888889)
        #expect(launch.p90Seconds == 1.466667)
        let newer = try #require(summary.byDevice.first { $0.name == "iPhone15,3" })
        #expect(newer.launch?.p50Seconds == 0.309091)
        #expect(newer.launch?.p90Seconds == 0.52)
        #expect(newer.hangRate == 5.925267)
        // Over both: the buckets merged, 40 launches.
        #expect(summary.launch?.count == 40)
        #expect(summary.launch?.p50Seconds == 0.52)
        #expect(summary.launch?.p90Seconds == 1.155556)
    }

    static func figures(_ version: String, _ device: String?, exits: [String: Int64] = [:])
        -> FleetEvent.MetricKitFigures
    {
        var figures = FleetEvent.MetricKitFigures(version: version, bundleId: nil, exits: exits, date: nil)
        figures.device = device
        figures.metricPayloads = 1
        return figures
    }

    @Test func versionsAndDevicesAreGroupedAndCapped() {
        var fleet = MetricKitFleet(maxGroups: 2)
        fleet.add(Self.figures("1.0", "iPhone1,1", exits: ["foreground.normal": 1]))
        fleet.add(Self.figures("1.0", "iPhone2,1", exits: ["foreground.normal": 2]))
        fleet.add(Self.figures("2.0", "iPhone2,1", exits: ["background.memoryPressure": 4]))
        fleet.add(Self.figures("3.0", "iPhone3,1", exits: ["foreground.normal": 8]))
        fleet.add(Self.figures("2.0", nil))
        let summary = fleet.summary()
        #expect(summary.byVersion.map(\.name) == ["2.0", "1.0"])
        #expect(summary.byVersion.map(\.metricPayloads) == [2, 2])
        #expect(summary.byDevice.map(\.name) == ["iPhone2,1", "iPhone1,1"])
        #expect(summary.ungroupedVersions == 1)
        #expect(summary.ungroupedDevices == 2)
        // Totals keep what the rows could not.
        #expect(summary.metricPayloads == 5)
        #expect(summary.exits.first { $0.reason == "normal" }?.foreground == 11)
    }

    @Test func hostileFiguresNeitherWrapNorGrowWithoutBound() {
        var fleet = MetricKitFleet()
        var figures = Self.figures("1.0", "x")
        figures.exits = ["foreground.normal": Int64.max]
        figures.launchBuckets = (0..<1000).map {
            FleetEvent.MetricKitFigures.LaunchBucket(start: Double($0), end: Double($0) + 1, count: Int64.max)
        }
        fleet.add(figures)
        fleet.add(figures)
        let summary = fleet.summary()
        #expect(summary.exits.first?.foreground == Int64.max)
        #expect(summary.launch?.count == Int64.max)
        // Past the fleet-wide bucket budget, launches are counted as left out, not dropped silently.
        var budgeted = MetricKitFleet(maxLaunchBuckets: 10)
        var twenty = Self.figures("1.0", "x")
        twenty.launchBuckets = (0..<20).map {
            FleetEvent.MetricKitFigures.LaunchBucket(start: Double($0), end: Double($0) + 1, count: 3)
        }
        budgeted.add(twenty)
        let spent = budgeted.summary()
        #expect(spent.launch?.count == 30)
        #expect(spent.launch?.samplesLeftOut == 30)
        #expect(spent.byVersion.first?.launch?.count == 0)
        #expect(spent.byVersion.first?.launch?.samplesLeftOut == 60)
        #expect(spent.byVersion.first?.launch?.p50Seconds == nil)
        // More reasons than a payload can name are dropped past the cap, in the totals and the rows alike.
        var many = Self.figures("1.0", "x")
        many.exits = Dictionary(uniqueKeysWithValues: (0..<500).map { ("foreground.r\($0)", Int64(1)) })
        var capped = MetricKitFleet()
        capped.add(many)
        #expect(capped.summary().exits.count <= 64)
    }

    @Test func scanTextShowsTheFleetViewCappedAndEscaped() throws {
        var fleet = MetricKitFleet()
        for index in 0..<25 { fleet.add(Self.figures("1.\(index)", "dev\u{1b}[31m\(index)")) }
        let text = ScanRenderer.render(fleet.summary())
        #expect(text.contains("MetricKit by app version"))
        #expect(text.contains("… 5 more (see --format json)"))
        #expect(!text.contains("\u{1b}"))
        let corpus = ScanRenderer.render(try Self.fleet([Self.newer, Self.older]))
        #expect(corpus.contains("memory pressure"))
        #expect(corpus.contains("889 ms"))
        #expect(corpus.contains("MetricKit by device type"))
    }

    @Test func reportAddsDevicesLaunchAndMemoryKillsBesideJetsam() throws {
        var aggregator = FleetAggregator()
        for path in [Self.newer, Self.older] {
            let event = ReportInspector().inspect(path: FuzzReplayInputs.root.appendingPathComponent(path).path)
                .fleetEvent
            aggregator.add(event)
        }
        var memory = Self.figures("3.1.4", "iPhone12,1")
        memory.metricPayloads = 0
        memory.diagnostics = ["memoryException": 3]
        aggregator.add(FleetEvent(file: "memory.json", kind: "metrickit", metricKit: [memory]))
        let summary = aggregator.summary()
        #expect(summary.metricKit.map(\.version) == ["3.2.0", "3.1.4"])
        #expect(summary.metricKit.last?.launch?.p50Seconds == 0.888889)
        #expect(summary.metricKit.last?.hangRate == 14.25)
        #expect(summary.metricKitFleet.byDevice.map(\.name) == ["iPhone12,1", "iPhone15,3"])
        let kills = summary.oom.metricKitByVersion
        #expect(kills.count == 1)
        #expect(kills.first?.version == "3.1.4")
        #expect(kills.first?.source == "metrickit")
        #expect(kills.first?.foregroundMemoryLimitExits == 2)
        #expect(kills.first?.backgroundMemoryLimitExits == 4)
        #expect(kills.first?.memoryExceptionDiagnostics == 3)
        let json = try JSONOutput.encode(summary, pretty: false)
        for key in ["\"metricKitFleet\"", "\"metricKitByVersion\"", "\"p90Seconds\"", "\"hangRate\"", "\"byDevice\""] {
            #expect(json.contains(key), "\(key)")
        }
        let text = FleetReportTextRenderer.text(summary)
        #expect(text.contains("Memory kills by version (MetricKit"))
        #expect(text.contains("MetricKit by device type"))
        let markdown = FleetReportTextRenderer.markdown(summary)
        #expect(markdown.contains("| metrickit | 3.1.4 | 2 | 4 | 3 |"))
        let html = FleetReportHTMLRenderer.render(summary)
        #expect(html.contains("<h2>Memory kills by version (MetricKit)</h2>"))
        #expect(html.contains("<td class=\"n\">889 ms</td>"))
    }
}
