import APMInspectCore
import BackendExport
import CrashReportParsing
import Foundation
import Testing
import WatchdogAnalysis

/// What Sentry's Apple crash pipeline shows, taken from real-looking reports of the Corpus: registers, the
/// mechanism's signal and Mach exception, the faulting address, the report's own message, fingerprints of function
/// names, image vmaddrs from a dSYM, and the original time of events past Sentry's retention.
@Suite struct SentryAppleCrashFieldsTests {
    static let badAccess = "crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"

    /// The first event of a Corpus file, as a JSON object, written at `now` (seconds since 1970) when given.
    static func event(_ file: String, now: Int64? = nil) throws -> (event: [String: Any], incident: BackendIncident) {
        let loaded = try CorpusIncidents.load(file)
        let incident = try #require(loaded.incidents.first)
        let id = EventIdentity(contentDigest: loaded.digest, ordinal: 0)
        let writer = SentryEventWriter(toolVersion: "test", now: now)
        return (try CorpusIncidents.object(writer.event(incident, id: id)), incident)
    }

    static func exception(of event: [String: Any]) throws -> [String: Any] {
        let values = try #require((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])
        return try #require(values.first)
    }

    /// The ARM thread state of the crashed thread, on its stack trace and on the exception's (the same thread).
    @Test func registersOfTheCrashedThread() throws {
        let (event, _) = try Self.event(Self.badAccess)
        let exception = try Self.exception(of: event)
        let registers = try #require((exception["stacktrace"] as? [String: Any])?["registers"] as? [String: String])
        #expect(registers["pc"] == "0x102a20b80")
        #expect(registers["lr"] == "0x102a27878")
        #expect(registers["sp"] == "0x16d3f2a40")
        #expect(registers["fp"] == "0x16d3f2a90")
        #expect(registers["x17"] == "0x8bd40001a1b3a5c0")
        #expect(registers["far"] == "0x10")
        #expect(registers["esr"] == "0x92000006")
        #expect(registers["cpsr"] == "0x20000000")
        #expect(registers.count == 36)
        let threads = try #require((event["threads"] as? [String: Any])?["values"] as? [[String: Any]])
        let crashed = try #require(threads.first { $0["crashed"] as? Bool == true })
        #expect((crashed["stacktrace"] as? [String: Any])?["registers"] as? [String: String] == registers)
        for thread in threads where thread["crashed"] as? Bool != true {
            #expect((thread["stacktrace"] as? [String: Any])?["registers"] == nil)
        }
    }

    /// `mechanism.meta` with the signal and the whole Mach triple, and the faulting address as `relevant_address`.
    @Test func mechanismMetaAndRelevantAddress() throws {
        let (event, _) = try Self.event(Self.badAccess)
        let mechanism = try #require(try Self.exception(of: event)["mechanism"] as? [String: Any])
        let meta = try #require(mechanism["meta"] as? [String: Any])
        let mach = try #require(meta["mach_exception"] as? [String: Any])
        #expect(mach["exception"] as? Int == 1)
        #expect(mach["name"] as? String == "EXC_BAD_ACCESS")
        #expect(mach["code"] as? Int == 1)
        #expect(mach["subcode"] as? Int == 0x10)
        let signal = try #require(meta["signal"] as? [String: Any])
        #expect(signal["number"] as? Int == 11)
        #expect(signal["name"] as? String == "SIGSEGV")
        #expect((mechanism["data"] as? [String: Any])?["relevant_address"] as? String == "0x10")
    }

    /// Sentry's models want a signal's number and the Mach exception's whole triple: a part is left out, not guessed.
    @Test func partialMechanismPartsAreLeftOut() throws {
        let loaded = try CorpusIncidents.load(Self.badAccess)
        var incident = try #require(loaded.incidents.first)
        incident.machException?.subcode = nil
        incident.signal?.number = nil
        let id = EventIdentity(contentDigest: loaded.digest, ordinal: 0)
        let event = try CorpusIncidents.object(SentryEventWriter(toolVersion: "test").event(incident, id: id))
        let mechanism = try #require(try Self.exception(of: event)["mechanism"] as? [String: Any])
        #expect(mechanism["meta"] == nil)
        #expect((mechanism["data"] as? [String: Any])?["relevant_address"] as? String == "0x10")
    }

    /// The value is what the report says about its crash; the Mach meaning only when it says nothing.
    @Test func exceptionValueIsTheReportsOwnMessage() throws {
        let nsException = try Self.event("crash/ios9.3.5_text_armv7_exc_crash_sigabrt_nsexception_raw_leb.crash")
        #expect(
            try Self.exception(of: nsException.event)["value"] as? String
                == "*** -[__NSDictionaryM setObject:forKey:]: object cannot be nil (key: draftTitle)"
        )
        // A JSON report of an uncaught NSException: `exceptionReason.composed_message` comes before the
        // Application Specific Information (`abort() called`).
        let file = "crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"
        let text = String(decoding: try CorpusIncidents.bytes(file), as: UTF8.self)
        let reason =
            #""exceptionReason" : {"name":"NSRangeException","type":"objc-exception","class":"NSException","#
            + #""composed_message":"*** -[__NSArrayM objectAtIndexedSubscript:]: index 7 beyond bounds [0 .. 3]"},"#
        let insertion = try #require(text.firstRange(of: #""exception" : {"#)).lowerBound
        var edited = text
        edited.insert(contentsOf: reason, at: insertion)
        let loaded = try CorpusIncidents.load(bytes: Array(edited.utf8), family: "crash")
        let objc = try #require(loaded.incidents.first)
        #expect(objc.exceptionValue == "*** -[__NSArrayM objectAtIndexedSubscript:]: index 7 beyond bounds [0 .. 3]")
        let plain = try #require(try CorpusIncidents.load(file).incidents.first)
        #expect(plain.exceptionValue == "libsystem_c.dylib: abort() called")
        let abort = try Self.event("crash/ios8.1.2_109_text_body_exc_crash_sigabrt.ips")
        #expect(try Self.exception(of: abort.event)["value"] as? String == "abort() called")
        let deadlock = try Self.event("crash/kscrash_style_x86_64_simulator_side_by_side.crash")
        #expect(try Self.exception(of: deadlock.event)["value"] as? String == "Application main thread deadlocked")
        // No Application Specific Information: the codes as written and what EXC_BAD_ACCESS means.
        let badAccess = try Self.event(Self.badAccess)
        let value = try #require(try Self.exception(of: badAccess.event)["value"] as? String)
        #expect(value.hasPrefix("KERN_INVALID_ADDRESS at 0x0000000000000010 > bad memory access"))
    }

    /// Function names group builds of the same code; without them the event leaves grouping to Sentry.
    @Test func fingerprintsAreFunctionNames() throws {
        let (event, incident) = try Self.event(Self.badAccess)
        let fingerprint = try #require(event["fingerprint"] as? [String])
        #expect(
            fingerprint == [
                "EXC_BAD_ACCESS SIGSEGV SIGNAL", "LumenKit`ThumbnailCache.entry(for:)",
                "LumenKit`ThumbnailCache.image(for:size:)", "Lumen`PhotoGridCell.configure(with:)",
                "Lumen`PhotoGridViewController.collectionView(_:cellForItemAt:)",
                "Lumen`@objc PhotoGridViewController.collectionView(_:cellForItemAt:)",
            ]
        )
        // The signature stays a tag, for `scan`'s groups.
        #expect((event["tags"] as? [String: Any])?["signature"] as? String == incident.signature)
        // A redacted app frame has no name: no fingerprint, Sentry groups by the stack it symbolicates.
        let redacted = try Self.event("crash/ios6.1.3_text_armv7_crashed_thread_redacted_plus_app_image.crash")
        #expect(redacted.event["fingerprint"] == nil)
    }

    /// A watchdog kill keeps its kill code first; frames without names leave the rest to Sentry's own grouping.
    @Test func watchdogFingerprintWithoutNames() throws {
        let file = "watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips"
        var report = try CrashReportParser().parse(try CorpusIncidents.bytes(file)).report
        let named = try #require(
            BackendEvents.incidents(crash: report, watchdog: WatchdogDetector.analyze(report)).first
        )
        #expect(
            named.fingerprint == [
                "watchdog", "0x8badf00d", "Pixelia`ProfileLoader.loadSynchronously(url:)",
                "Pixelia`FeedViewController.viewWillAppear(_:)", "Pixelia`main",
            ]
        )
        // The same frames unsymbolicated, as a report without symbols writes them.
        report.signatureFrames = ["Pixelia+0x1a2b4", "Pixelia+0x19f00", "Pixelia+0x4c10"]
        let offsets = try #require(
            BackendEvents.incidents(crash: report, watchdog: WatchdogDetector.analyze(report)).first
        )
        #expect(offsets.fingerprint == ["watchdog", "0x8badf00d", "{{ default }}"])
    }

    /// `image_vmaddr` where a dSYM or binary gives it, and only there.
    @Test func imageVMAddressFromDebugInformation() throws {
        let report = try CrashReportParser().parse(try CorpusIncidents.bytes(Self.badAccess)).report
        let incident = try #require(
            BackendEvents.incidents(
                crash: report,
                imageVMAddress: { uuid, arch in
                    uuid == "d61e2520a303382fb51d1d5d1c045cb6" && arch == "arm64" ? 0x1_0000_0000 : nil
                }
            ).first
        )
        let event = try CorpusIncidents.object(
            SentryEventWriter(toolVersion: "test").event(incident, id: EventIdentity(contentDigest: [], ordinal: 0))
        )
        let images = try #require((event["debug_meta"] as? [String: Any])?["images"] as? [[String: Any]])
        let app = try #require(images.first { $0["uuid"] as? String == "d61e2520-a303-382f-b51d-1d5d1c045cb6" })
        #expect(app["image_vmaddr"] as? String == "0x100000000")
        #expect(app["arch"] as? String == "arm64")
        #expect(app["name"] as? String == report.binaryImages.first?.path)
        #expect(images.filter { $0["image_vmaddr"] != nil }.count == 1)
    }

    /// Past Sentry's 90-day retention the report's own time is kept in a tag; within it, nothing is added.
    @Test func originalTimeOfAnOldEvent() throws {
        let loaded = try CorpusIncidents.load(Self.badAccess)
        let incident = try #require(loaded.incidents.first)
        let happened = try #require(incident.timestamp.flatMap { Int64(exactly: $0.secondsSince1970.rounded(.down)) })
        #expect(happened == 1_615_315_337)
        let late = SentryEventWriter(toolVersion: "test", now: happened + 91 * 86_400)
        #expect(late.isBeyondRetention(incident))
        let id = EventIdentity(contentDigest: loaded.digest, ordinal: 0)
        let old = try CorpusIncidents.object(late.event(incident, id: id))
        #expect((old["tags"] as? [String: Any])?["original_timestamp"] as? String == "2021-03-09T19:42:17.3861+01:00")
        // The event still says when it happened; Sentry is what replaces it.
        #expect((old["timestamp"] as? Double).flatMap { Int64(exactly: $0.rounded(.down)) } == happened)
        let recent = SentryEventWriter(toolVersion: "test", now: happened + 89 * 86_400)
        #expect(!recent.isBeyondRetention(incident))
        let fresh = try CorpusIncidents.object(recent.event(incident, id: id))
        #expect((fresh["tags"] as? [String: Any])?["original_timestamp"] == nil)
        // Without a time of sending there is no check.
        #expect(!SentryEventWriter(toolVersion: "test").isBeyondRetention(incident))
    }
}
