import APMInspectCore
import BackendExport
import CrashReportParsing
import Foundation
import Testing

@Suite struct SentryEventTests {
    static let writer = SentryEventWriter(toolVersion: "test")

    static func matches(_ text: String, _ pattern: String) -> Bool {
        text.range(of: "^" + pattern + "$", options: .regularExpression) != nil
    }

    @Test func corpusIsThere() {
        #expect(CorpusIncidents.files.count >= 40)
    }

    /// Every Corpus report gives its events (or none, for the files there to show what is not an event), each
    /// with the fields Sentry requires, frames oldest first, addresses as hex strings and `apple` debug images.
    @Test(arguments: CorpusIncidents.files)
    func corpusFileGivesValidEvents(file: String) throws {
        let loaded = try CorpusIncidents.load(file)
        if CorpusIncidents.withoutEvents.contains(file) {
            #expect(loaded.incidents.isEmpty, "\(file) is not an event")
            return
        }
        #expect(!loaded.incidents.isEmpty, "\(file) gave no event")
        for (incident, id) in BackendEvents.identified(loaded.incidents, contentDigest: loaded.digest) {
            let event = try CorpusIncidents.object(Self.writer.event(incident, id: id))
            let eventID = try #require(event["event_id"] as? String)
            #expect(Self.matches(eventID, "[0-9a-f]{32}"))
            #expect(event["platform"] as? String == "cocoa")
            #expect(["fatal", "error", "warning"].contains(event["level"] as? String ?? ""))
            if incident.isFatal { #expect(event["level"] as? String == "fatal") }
            let values = try #require((event["exception"] as? [String: Any])?["values"] as? [[String: Any]])
            let exception = try #require(values.first)
            #expect(exception["type"] as? String == incident.exceptionType)
            let mechanism = try #require(exception["mechanism"] as? [String: Any])
            #expect(mechanism["handled"] as? Bool == false)
            #expect(!(mechanism["type"] as? String ?? "").isEmpty)

            // Oldest first: Sentry's first frame is Apple's last.
            let apple = incident.framesOfException
            let frames = (exception["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
            #expect(frames.count == apple.count)
            if let oldest = apple.last?.instructionAddress, let first = frames.first {
                #expect(first["instruction_addr"] as? String == HexValue(oldest).description)
            }
            if let newest = apple.first?.instructionAddress, let last = frames.last {
                #expect(last["instruction_addr"] as? String == HexValue(newest).description)
            }
            let threads = (event["threads"] as? [String: Any])?["values"] as? [[String: Any]] ?? []
            let allFrames =
                frames + threads.flatMap { ($0["stacktrace"] as? [String: Any])?["frames"] as? [[String: Any]] ?? [] }
            for frame in allFrames {
                for key in ["instruction_addr", "image_addr", "symbol_addr"] {
                    if let value = frame[key] {
                        let text = try #require(value as? String, "\(key) is not a string")
                        #expect(Self.matches(text, "0x[0-9a-f]+"), "\(key) \(text)")
                    }
                }
            }
            let images = (event["debug_meta"] as? [String: Any])?["images"] as? [[String: Any]] ?? []
            // sentry-cli's model wants a size: images without one are left out.
            #expect(images.count == incident.images.count { $0.size != nil })
            for image in images {
                #expect(image["type"] as? String == "apple")
                let uuid = try #require(image["uuid"] as? String)
                #expect(Self.matches(uuid, "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"))
                #expect(Self.matches(image["image_addr"] as? String ?? "", "0x[0-9a-f]+"))
                #expect(image["image_size"] is Int)
                #expect(image["name"] is String)
                // No dSYM was given: no vmaddr.
                #expect(image["image_vmaddr"] == nil)
            }
            let tags = try #require(event["tags"] as? [String: Any])
            #expect(tags["kind"] as? String == incident.kind.tag)
            if let release = incident.release { #expect(event["release"] as? String == release) }
            // A fingerprint is never the signature hash nor an offset: builds of the same code group together.
            for part in event["fingerprint"] as? [String] ?? [] {
                #expect(part != incident.signature)
                #expect(!Self.matches(part, ".*\\+0x[0-9a-f]+") && !Self.matches(part, ".*@0x[0-9a-f]+"), "\(part)")
            }
        }
    }

    /// The same bytes give the same ids; another place in the file or other bytes give another.
    @Test func idsAreDeterministic() throws {
        let file = "crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"
        let first = try CorpusIncidents.load(file)
        let second = try CorpusIncidents.load(file)
        let incident = try #require(first.incidents.first)
        let a = Self.writer.event(incident, id: EventIdentity(contentDigest: first.digest, ordinal: 0))
        let b = Self.writer.event(
            try #require(second.incidents.first),
            id: EventIdentity(contentDigest: second.digest, ordinal: 0)
        )
        #expect(try SortedJSONEncoder().encode(a) == (try SortedJSONEncoder().encode(b)))
        let other = EventIdentity(contentDigest: first.digest, ordinal: 1)
        #expect(other != EventIdentity(contentDigest: first.digest, ordinal: 0))
        var changed = first.digest
        changed[0] ^= 1
        #expect(
            EventIdentity(contentDigest: changed, ordinal: 0) != EventIdentity(contentDigest: first.digest, ordinal: 0)
        )
        // RFC 9562 version 8, variant 10.
        let id = EventIdentity(contentDigest: first.digest, ordinal: 0)
        #expect(id.bytes[6] >> 4 == 8)
        #expect(id.bytes[8] >> 6 == 0b10)
        #expect(Self.matches(id.dashed, "[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"))
    }

    /// The mechanism of a text report: Mach exception numbers and codes, the signal by number.
    @Test func machExceptionAndSignalOfABadAccess() throws {
        let loaded = try CorpusIncidents.load("crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash")
        let incident = try #require(loaded.incidents.first)
        #expect(incident.machException?.exception == 1)
        #expect(incident.machException?.name == "EXC_BAD_ACCESS")
        #expect(incident.machException?.code == 1)
        #expect(incident.machException?.subcode == 0x10)
        #expect(incident.signal?.number == 11)
        #expect(incident.signal?.name == "SIGSEGV")
        #expect(incident.release == "com.brightleaf.lumen@2.3.1+57")
        #expect(incident.hardwareModel == "iPhone12,1")
        #expect(incident.osName == "iOS")
    }

    /// PLCrashReporter's codes name the signal code, which Sentry takes with its number.
    @Test func signalCodeOfAPLCrashReport() throws {
        let loaded = try CorpusIncidents.load("crash/plcrashreporter_style_ios12_sigsegv_segv_maperr.crash")
        let incident = try #require(loaded.incidents.first)
        #expect(incident.signal?.codeName == "SEGV_MAPERR")
        #expect(incident.signal?.code == 1)
        #expect(incident.mechanismType == "signal")
    }

    @Test func watchdogAndOOMKills() throws {
        let watchdog = try CorpusIncidents.load(
            "watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips"
        )
        let kill = try #require(watchdog.incidents.first)
        #expect(kill.kind == .watchdog)
        #expect(kill.mechanismType == "watchdog_termination")
        #expect(kill.exceptionValue?.contains("0x8badf00d") == true)
        let jetsam = try CorpusIncidents.load("jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips")
        let oom = try #require(jetsam.incidents.first)
        #expect(oom.kind == .outOfMemory)
        #expect(oom.exceptionValue?.contains("per-process-limit") == true)
        #expect(oom.exceptionValue?.contains("limit 1450 MB") == true)
        #expect(oom.hardwareModel == "iPhone8,2")
    }

    /// A report listing more threads and frames than an event can carry is cut to the caps, and says so.
    @Test func hostileSizesAreCapped() {
        let frames = (0..<5_000).map {
            CrashReport.Frame(index: $0, image: "App", address: HexValue(UInt64(0x1000 + $0)))
        }
        let threads = (0..<3_000).map { CrashReport.Thread(index: $0, crashed: $0 == 0, frames: $0 == 0 ? frames : []) }
        let report = CrashReport(
            sourceFormat: .text,
            exception: CrashReport.Exception(type: "EXC_BAD_ACCESS", signal: "SIGSEGV"),
            crashedThread: 0,
            threads: threads
        )
        let incident = BackendIncident(crash: report)
        #expect(incident?.threads.count == 256)
        #expect(incident?.threads.first?.frames.count == 512)
        #expect(incident?.extra.contains { $0.key == "threads_left_out" && $0.value == "2744" } == true)
    }

    /// A report that says it is not a crash gives no event.
    @Test func simulatedReportGivesNoEvent() {
        let report = CrashReport(
            sourceFormat: .text,
            exception: CrashReport.Exception(type: "EXC_CRASH", note: "SIMULATED (this is NOT a crash)"),
            isNotACrash: true
        )
        #expect(BackendIncident(crash: report) == nil)
    }
}
