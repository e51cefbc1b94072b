import APMInspectCore
import CrashReportParsing
import Foundation
import Testing

@testable import FleetReport

/// One hang Apple wrote twice (an `.ips` 228 and the `.hang` file of the same incident id) counts once.
@Suite struct HangIncidentLinkingTests {
    private static func hangEvent(file: String, incident: String?, seconds: Double) -> FleetEvent {
        var event = FleetEvent(file: file, kind: "crashReport")
        let context = FleetEvent.Context(bundleId: "com.harrowfield.osprey", process: "Osprey", appVersion: "3.2.0")
        event.occurrence = FleetEvent.Occurrence(
            category: .hang,
            hangSeconds: seconds,
            recovered: true,
            context: context,
            incidentId: incident.flatMap(FleetEvent.normalizedIncident)
        )
        event.hangs = [
            FleetEvent.Hang(
                source: .appleHangReport,
                frames: ["OspreyKit`LibraryStore.fetchAll()"],
                stack: ["OspreyKit`LibraryStore.fetchAll()"],
                verdict: "synchronousFileOrDatabaseIO",
                verdictReason: nil,
                context: context
            )
        ]
        return event
    }

    @Test func twoReportsOfOneIncidentAreOneHang() {
        var aggregator = FleetAggregator()
        aggregator.add(Self.hangEvent(file: "a.ips", incident: "7E3C1A92-0B4D-4F6E-8A1C-2D3E4F5A6B7C", seconds: 6.5))
        // The same id in another case and padding: the same incident.
        aggregator.add(Self.hangEvent(file: "a.hang", incident: " 7e3c1a92-0b4d-4f6e-8a1c-2d3e4f5a6b7c", seconds: 6.5))
        // Another incident, and one without an id: each a hang of its own.
        aggregator.add(Self.hangEvent(file: "b.ips", incident: "11111111-2222-3333-4444-555555555555", seconds: 2))
        aggregator.add(Self.hangEvent(file: "c.hang", incident: nil, seconds: 1))
        aggregator.add(Self.hangEvent(file: "d.hang", incident: "00000000-0000-0000-0000-000000000000", seconds: 1))
        let hangs = aggregator.summary().hangs
        #expect(hangs.total == 4)
        #expect(hangs.duplicatesLinked == 1)
        #expect(hangs.totalSeconds == 10.5)
        #expect(hangs.bySource["appleHangReport"] == 4)
        let group = hangs.groups.first
        #expect(group?.count == 4)
        // The second copy's file is listed with the group.
        #expect(group?.files.contains("a.hang") == true)
    }
}
