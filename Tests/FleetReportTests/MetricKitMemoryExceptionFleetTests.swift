import APMInspectCore
import FleetReport
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import Testing

/// A MetricKit memory exception (iOS 27) is an OOM the OS reported: `report` counts it as a confirmed one, with
/// source `metrickit`, beside the JetsamEvents.
@Suite struct MetricKitMemoryExceptionFleetTests {
    static let memory = "Corpus/metrickit/ios27.0_diagnostic_report_memory_exception.json"
    static let jetsam = "Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"

    static func event(_ path: String) -> FleetEvent {
        ReportInspector().inspect(path: FuzzReplayInputs.root.appendingPathComponent(path).path).fleetEvent
    }

    @Test func memoryExceptionIsAConfirmedOOMFromMetricKit() throws {
        var aggregator = FleetAggregator()
        aggregator.add(Self.event(Self.memory))
        let summary = aggregator.summary()
        #expect(summary.oom.confirmed.count == 1)
        #expect(summary.oom.confirmed.sources == ["metrickit": 1])
        #expect(summary.categories.outOfMemory == 1)
        #expect(summary.oom.events == 0)
        let row = try #require(summary.oom.metricKitByVersion.first)
        #expect(row.version == "4.0.0" && row.memoryExceptionDiagnostics == 1 && row.source == "metrickit")
        let json = try JSONOutput.encode(summary, pretty: false)
        #expect(json.contains(#""confirmed":{"count":1,"sources":{"metrickit":1}}"#))
    }

    @Test func jetsamEventsAndMemoryExceptionsAreCountedEachWithItsSource() throws {
        var aggregator = FleetAggregator()
        aggregator.add(Self.event(Self.memory))
        aggregator.add(Self.event(Self.jetsam))
        let summary = aggregator.summary()
        #expect(summary.oom.confirmed.sources["metrickit"] == 1)
        let jetsam = summary.oom.events - summary.categories.systemMemoryKills
        #expect(summary.oom.confirmed.sources["jetsamEvent"] == (jetsam > 0 ? jetsam : nil))
        #expect(summary.oom.confirmed.count == 1 + jetsam)
        #expect(summary.categories.outOfMemory == summary.oom.confirmed.count)
    }
}
