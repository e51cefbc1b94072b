import APMInspectCore
import BackendExport
import CrashReportParsing
import Foundation
import Testing
import WatchdogAnalysis

/// The backend events of KSCrash's report kinds: a hang is a non-fatal app hang (as sentry-cocoa reports them), a
/// watchdog kill a watchdog termination, a memory termination an OOM, a profile no event at all.
@Suite struct KSCrashKindEventTests {
    static let sentry = SentryEventWriter(toolVersion: "test")

    static func incidents(_ name: String) throws -> [BackendIncident] {
        try CorpusIncidents.load("kscrash/\(name)").incidents
    }

    static func event(_ incident: BackendIncident) throws -> [String: Any] {
        let id = try #require(BackendEvents.identified([incident], contentDigest: [1, 2, 3]).first?.id)
        return try CorpusIncidents.object(sentry.event(incident, id: id))
    }

    static func mechanism(_ event: [String: Any]) -> String? {
        let values = (event["exception"] as? [String: Any])?["values"] as? [[String: Any]]
        return (values?.first?["mechanism"] as? [String: Any])?["type"] as? String
    }

    @Test func hangIsANonFatalAppHang() throws {
        let incidents = try Self.incidents("v3.7.0_ios18.2_arm64_hang_recovered_sqlite_main_thread.json")
        let incident = try #require(incidents.first)
        #expect(incidents.count == 1)
        #expect(incident.kind == .hang)
        #expect(!incident.isFatal)
        #expect(incident.exceptionType == "App Hanging")
        #expect(incident.exceptionValue == "App hanging for 2751 ms.")
        #expect(incident.exceptionThread == 0)
        #expect(incident.framesOfException.first?.function == "__psynch_mutexwait")
        let event = try Self.event(incident)
        #expect(event["level"] as? String == "error")
        #expect(Self.mechanism(event) == "AppHang")
        #expect(OTLPLogWriter.eventName(incident) == "app.jank")
        #expect(incident.extra.contains { $0.key == "hang_recovered" && $0.value == "true" })
    }

    @Test func watchdogKillIsAWatchdogTermination() throws {
        let incident = try #require(
            try Self.incidents("v3.7.0_ios18.2_arm64_watchdog_0x8badf00d_launch_hang.json").first
        )
        #expect(incident.kind == .watchdog)
        #expect(incident.isFatal)
        #expect(incident.fingerprint?.prefix(2) == ["watchdog", "0x8badf00d"])
        #expect(Self.mechanism(try Self.event(incident)) == "watchdog_termination")
        #expect(OTLPLogWriter.eventName(incident) == "app.crash")
    }

    @Test func memoryTerminationIsAnOutOfMemoryEvent() throws {
        let incident = try #require(try Self.incidents("v3.9.0_ios18.2_arm64_termination_memory_limit.json").first)
        #expect(incident.kind == .outOfMemory)
        #expect(incident.exceptionType == "OutOfMemory")
        #expect(Self.mechanism(try Self.event(incident)) == "out_of_memory")
        #expect(incident.extra.contains { $0.key == "termination_reason" && $0.value == "memory_limit" })
    }

    @Test func profileGivesNoEvent() throws {
        #expect(try Self.incidents("v3.7.0_ios18.2_arm64_profile_startup_samples.json").isEmpty)
    }

    @Test func hangWithoutThreadsOrTimesStillGivesAnEvent() throws {
        let json = #"""
            {"report": {"version": "3.7.0", "id": "H"}, "crash": {"error": {"type": "hang"}, "threads": []}}
            """#
        let report = try KSCrashReader().parse(Array(json.utf8)).report
        let incident = try #require(BackendIncident(crash: report))
        #expect(incident.kind == .hang)
        #expect(incident.exceptionThread == nil)
        #expect(incident.exceptionValue == "App hanging for an unknown time.")
        #expect(try Self.event(incident)["level"] as? String == "error")
    }

    @Test func nonFatalReportIsAWarning() throws {
        let json = #"""
            {"report": {"version": "3.7.0", "id": "R"},
             "crash": {"error": {"type": "mach", "mach": {"exception": 11, "exception_name": "EXC_RESOURCE"},
               "is_fatal": false}, "threads": []}}
            """#
        let report = try KSCrashReader().parse(Array(json.utf8)).report
        let incident = try #require(BackendIncident(crash: report))
        #expect(!incident.isFatal)
        #expect(try Self.event(incident)["level"] as? String == "warning")
    }

    @Test func thermalTerminationIsAWatchdogTermination() throws {
        let json = #"""
            {"report": {"version": "3.9.0", "id": "T"},
             "crash": {"error": {"type": "termination", "termination_reason": "thermal"}, "threads": []}}
            """#
        let report = try KSCrashReader().parse(Array(json.utf8)).report
        let watchdog = try #require(WatchdogDetector.analyze(kscrash: report))
        #expect(watchdog.kind == .thermal)
        let incident = try #require(BackendIncident(crash: report, watchdog: watchdog))
        #expect(incident.mechanismType == "watchdog_termination")
    }
}
