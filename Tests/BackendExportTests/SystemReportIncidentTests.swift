import APMInspectCore
import BackendExport
import CrashReportParsing
import Testing

/// Resource reports and system watchdogs are not app crashes in the backend formats.
@Suite struct SystemReportIncidentTests {
    static let writer = SentryEventWriter(toolVersion: "test")

    static func incident(_ file: String) throws -> BackendIncident {
        let loaded = try CorpusIncidents.load("system/\(file)")
        return try #require(loaded.incidents.first)
    }

    static func level(_ incident: BackendIncident) throws -> String? {
        let id = EventIdentity(contentDigest: SHA256Digest.hash([1]), ordinal: 0)
        return try CorpusIncidents.object(writer.event(incident, id: id))["level"] as? String
    }

    @Test func aCPUKillIsAFatalResourceKillNotACrash() throws {
        let incident = try Self.incident("ios26.2_206_cpu_usage_fatal_nightjar_process_killed.ips")
        #expect(incident.kind == .resourceKill)
        #expect(incident.isFatal)
        #expect(incident.mechanismType == "resource_kill")
        #expect(incident.exceptionType == "CPUResourceKill")
        #expect(try Self.level(incident) == "fatal")
        #expect(OTLPLogWriter.eventName(incident) != "app.crash")
        // Innermost first: the report lists the heaviest stack outermost first.
        #expect(incident.framesOfException.first?.imageOffset == 1_297_112)
        #expect(incident.framesOfException.last?.imageName == "libsystem_pthread.dylib")
    }

    @Test(arguments: [
        "ios26.2_145_disk_writes_photoindexd_action_none.ips", "ios26.2_202_cpu_usage_nightjar_action_none.ips",
    ])
    func aResourceWarningIsWarningLevelAndNotFatal(file: String) throws {
        let incident = try Self.incident(file)
        #expect(incident.kind == .resourceWarning)
        #expect(!incident.isFatal)
        #expect(try Self.level(incident) == "warning")
        #expect(OTLPLogWriter.eventName(incident) == "apple.resource.limit")
    }

    @Test func aSystemWatchdogIsAnErrorLevelSystemEvent() throws {
        let incident = try Self.incident("macos26.4_409_watchdog_compositord_service_unresponsive.ips")
        #expect(incident.kind == .systemWatchdog)
        #expect(!incident.isFatal)
        #expect(incident.mechanismType == "system_watchdog")
        #expect(try Self.level(incident) == "error")
        #expect(OTLPLogWriter.eventName(incident) == "apple.system_watchdog")
        #expect(incident.process == "compositord")
        #expect(incident.threads.count == 2)
        #expect(incident.framesOfException.first?.imageName == "libsystem_kernel.dylib")
    }
}
