import APMInspectCore
import FleetReport
import Foundation
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import Testing

/// App Store Connect responses in the fleet report: a hang logs response is a hang, a disk-writes one a resource
/// warning, a signatures list nothing; the same from the file and from its NDJSON envelope.
@Suite struct AppStoreConnectFleetTests {
    static func inspection(_ name: String) -> Inspection {
        ReportInspector().inspect(
            path: FuzzReplayInputs.root.appendingPathComponent("Corpus/appstoreconnect/\(name)").path
        )
    }

    static let names = [
        "asc_v1_signature_logs_hang_per_thread.json", "asc_v1_signature_logs_disk_writes.json",
        "asc_v1_build_diagnostic_signatures.json",
    ]

    @Test func logsCountAsOneOccurrenceEachAndSignaturesAsNone() throws {
        var aggregator = FleetAggregator()
        for name in Self.names {
            let inspection = Self.inspection(name)
            #expect(inspection.kind == .appStoreConnect)
            let event = inspection.fleetEvent
            let line = try JSONOutput.encode(inspection, pretty: false)
            #expect(try FleetEnvelope.decode(line: Array(line.utf8)) == event, "\(name)")
            aggregator.add(event)
        }
        let categories = aggregator.summary().categories
        #expect(categories.hangs == 1)
        #expect(categories.resourceWarnings == 1)
        #expect(categories.resourceKills == 0)
        #expect(categories.crashes == 0)
        let hang = Self.inspection(Self.names[0]).fleetEvent.occurrence
        #expect(hang?.category == .hang)
        #expect(hang?.context.bundleId == "com.example.fernway")
        #expect(hang?.context.appVersion == "3.2.0")
        #expect(hang?.context.appBuild == "412")
        #expect(hang?.context.osVersion == "17.5")
        #expect(hang?.context.device == "iPhone15,2")
        #expect(Self.inspection(Self.names[2]).fleetEvent.occurrence == nil)
    }
}
