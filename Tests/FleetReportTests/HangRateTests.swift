import APMInspectCore
import FleetReport
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import Testing

/// `hangs.rateByVersion`: MetricKit's hang seconds per foreground hour, per app and version, from the metric
/// payloads' hang-time histograms (each bucket at its midpoint) and cumulative foreground time.
@Suite struct HangRateTests {
    static let newer = "Corpus/metrickit/ios17.4_metric_payload.json"
    static let older = "Corpus/metrickit/ios16.7.2_metric_payload_older_version.json"

    static func inspection(_ path: String) throws -> Inspection {
        let bytes = try FileReading.contents(atPath: FuzzReplayInputs.root.appendingPathComponent(path).path)
        return ReportInspector().inspect(bytes: bytes, path: path)
    }

    @Test func hangSecondsPerForegroundHourPerVersion() throws {
        var aggregator = FleetAggregator()
        for path in [Self.newer, Self.older, Self.newer] { aggregator.add(try Self.inspection(path).fleetEvent) }
        let rates = aggregator.summary().hangs.rateByVersion
        #expect(rates.map(\.version) == ["3.2.0", "3.1.4"])
        #expect(rates.allSatisfy { $0.app == "com.example.fernway" })
        // 3.2.0, read twice: 2 × 4.625 s of hangs over 2 × 2,810 s in the foreground.
        let newer = try #require(rates.first)
        #expect(newer.metricPayloads == 2 && newer.hangSeconds == 9.25 && newer.foregroundSeconds == 5620)
        #expect(newer.hangSecondsPerHour == 5.925267)
        // 3.1.4: 14.25 s over one hour.
        let older = try #require(rates.last)
        #expect(older.metricPayloads == 1 && older.hangSecondsPerHour == 14.25)
    }

    @Test func theNDJSONOfAScanGivesTheSameRates() throws {
        var direct = FleetAggregator()
        var replayed = FleetAggregator()
        for path in [Self.newer, Self.older] {
            let inspection = try Self.inspection(path)
            direct.add(inspection.fleetEvent)
            let line = try JSONOutput.encode(inspection, pretty: false)
            replayed.add(try FleetEnvelope.decode(line: Array(line.utf8)), fromNDJSON: true)
        }
        #expect(replayed.summary().hangs == direct.summary().hangs)
        #expect(direct.summary().hangs.rateByVersion.count == 2)
    }

    @Test func everyFormatShowsTheRates() throws {
        var aggregator = FleetAggregator()
        aggregator.add(try Self.inspection(Self.older).fleetEvent)
        let summary = aggregator.summary()
        #expect(FleetReportTextRenderer.text(summary).contains("Hang rate by version (MetricKit)"))
        #expect(
            FleetReportTextRenderer.markdown(summary).contains(
                "| com.example.fernway | 3.1.4 | 1 | 14.3 | 1.0 | 14.3 |"
            )
        )
        #expect(FleetReportHTMLRenderer.render(summary).contains("data-version=\"3.1.4\" data-rate=\"14.25\""))
        let json = try JSONOutput.encode(summary, pretty: false)
        #expect(json.contains(#""rateByVersion":[{"app":"com.example.fernway","foregroundSeconds":3600,"#))
    }
}
