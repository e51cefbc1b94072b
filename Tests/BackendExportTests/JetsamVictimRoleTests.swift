import APMInspectCore
import BackendExport
import FuzzReplaySupport
import JetsamParsing
import Testing

/// A Jetsam kill of daemons alone is memory pressure on the device, not the app's OOM.
@Suite struct JetsamVictimRoleTests {
    static func incident(_ entries: [JetsamFixture.Entry]) throws -> BackendIncident {
        let event = try #require(try JetsamParser().parse(JetsamFixture.report(entries)).event)
        return try #require(BackendEvents.incidents(jetsam: event).first)
    }

    static func level(_ incident: BackendIncident) throws -> String? {
        let id = EventIdentity(contentDigest: SHA256Digest.hash([2]), ordinal: 0)
        let event = SentryEventWriter(toolVersion: "test").event(incident, id: id)
        return try CorpusIncidents.object(event)["level"] as? String
    }

    @Test func aKilledDaemonIsAWarningLevelSystemEventNotAnAppCrash() throws {
        let incident = try Self.incident([
            .frontmostApp("SnapCollage"), .idleDaemon("financed", reason: "per-process-limit"),
            JetsamFixture.Entry("SpringBoard", states: [], pid: 34, rpages: 9_000, priority: 10),
        ])
        #expect(incident.kind == .systemMemoryKill)
        #expect(!incident.isFatal)
        #expect(incident.process == "financed")
        #expect(incident.exceptionType == "SystemMemoryKill")
        #expect(try Self.level(incident) == "warning")
        #expect(OTLPLogWriter.eventName(incident) == "apple.jetsam.system_kill")
        #expect(incident.fingerprint?.first == "system_oom")
    }

    @Test func aKilledAppStaysAFatalOutOfMemoryBesideAKilledDaemon() throws {
        let incident = try Self.incident([
            .idleDaemon("financed", reason: "per-process-limit"),
            .frontmostApp("SnapCollage", reason: "per-process-limit"),
        ])
        #expect(incident.kind == .outOfMemory)
        #expect(incident.isFatal)
        #expect(incident.process == "SnapCollage")
        #expect(try Self.level(incident) == "fatal")
        #expect(OTLPLogWriter.eventName(incident) == "app.crash")
    }

    @Test func aKilledBackgroundAppIsStillTheAppsOutOfMemory() throws {
        let incident = try Self.incident([
            JetsamFixture.Entry("SnapCollage", states: ["suspended"], reason: "vm-pageshortage"),
            .idleDaemon("financed"),
        ])
        #expect(incident.kind == .outOfMemory)
        #expect(incident.isFatal)
    }
}
