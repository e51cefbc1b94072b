import APMInspectCore
import BackendExport
import Foundation
import Testing

@Suite struct EnvelopeAndOTLPTests {
    /// Every Corpus event in an envelope: two header lines, and an item length that is the payload's byte count.
    @Test(arguments: CorpusIncidents.files)
    func envelopeLengthsAreExact(file: String) throws {
        let loaded = try CorpusIncidents.load(file)
        let writer = SentryEventWriter(toolVersion: "test")
        for (incident, id) in BackendEvents.identified(loaded.incidents, contentDigest: loaded.digest) {
            let payload = try SortedJSONEncoder().encode(writer.event(incident, id: id))
            let text = SentryEnvelope(eventID: id, payload: payload)
                .serialized(sentAt: "2026-11-25T05:00:00Z", toolVersion: "test")
            let bytes = Array(text.utf8)
            let lines = bytes.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)
            #expect(lines.count == 3)
            let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0])) as? [String: Any])
            let item = try #require(try JSONSerialization.jsonObject(with: Data(lines[1])) as? [String: Any])
            #expect(header["event_id"] as? String == id.hex)
            #expect(header["sent_at"] as? String == "2026-11-25T05:00:00Z")
            #expect(item["type"] as? String == "event")
            let length = try #require(item["length"] as? Int)
            let rest = Array(lines[2])
            #expect(length == payload.utf8.count)
            #expect(rest.count == length + 1)
            #expect(rest.last == 0x0A)
            #expect(Array(rest.prefix(length)) == Array(payload.utf8))
        }
    }

    /// A multi-byte payload: the length counts bytes, not characters.
    @Test func envelopeLengthCountsBytes() {
        let payload = #"{"message":"Größe überschritten — 日本"}"#
        let id = EventIdentity(contentDigest: SHA256Digest.hash(Array("x".utf8)), ordinal: 0)
        let text = SentryEnvelope(eventID: id, payload: payload).serialized(sentAt: "t", toolVersion: "v")
        #expect(text.contains(#""length":\#(payload.utf8.count)"#))
        #expect(payload.utf8.count != payload.count)
    }

    /// One OTLP document per file: the JSON mapping's shapes, the conventions' event names and attributes.
    @Test(arguments: CorpusIncidents.files)
    func otlpDocumentsFollowTheMapping(file: String) throws {
        let loaded = try CorpusIncidents.load(file)
        guard !loaded.incidents.isEmpty || !loaded.metricPayloads.isEmpty else {
            #expect(CorpusIncidents.withoutEvents.contains(file))
            return
        }
        let identified = BackendEvents.identified(loaded.incidents, contentDigest: loaded.digest)
        let document = try CorpusIncidents.object(
            OTLPLogWriter(toolVersion: "test").document(identified, metricPayloads: loaded.metricPayloads)
        )
        let resourceLogs = try #require(document["resourceLogs"] as? [[String: Any]])
        #expect(resourceLogs.count == 1)
        let scopeLogs = try #require(resourceLogs.first?["scopeLogs"] as? [[String: Any]])
        let records = try #require(scopeLogs.first?["logRecords"] as? [[String: Any]])
        #expect(records.count == loaded.incidents.count + loaded.metricPayloads.count)
        for record in records.dropFirst(loaded.incidents.count) {
            #expect(record["eventName"] as? String == OTLPLogWriter.metricPayloadEventName)
            #expect(record["severityNumber"] as? Int == 9)
        }
        for (record, (incident, id)) in zip(records, identified) {
            if let time = record["timeUnixNano"] {
                let digits = try #require(time as? String, "timeUnixNano is not a string")
                #expect(SentryEventTests.matches(digits, "[0-9]{19}"))
            }
            let attributes = try #require(record["attributes"] as? [[String: Any]])
            var values: [String: [String: Any]] = [:]
            for attribute in attributes {
                let key = try #require(attribute["key"] as? String)
                let value = try #require(attribute["value"] as? [String: Any])
                #expect(value.count == 1)
                if let int = value["intValue"] { #expect(int is String, "\(key): intValue is not a string") }
                values[key] = value
            }
            let name = try #require(record["eventName"] as? String)
            #expect(values["event.name"]?["stringValue"] as? String == name)
            #expect(values["exception.type"]?["stringValue"] as? String == incident.exceptionType)
            switch incident.kind {
            case .crash where incident.isFatal, .watchdog, .outOfMemory, .metricKitCrash:
                #expect(name == "app.crash")
                #expect(record["severityNumber"] as? Int == 21)
                #expect(values["app.crash.id"]?["stringValue"] as? String == id.dashed)
            case .resourceKill:
                // Fatal, but the OS's kill of a process over its budget: never the app's crash.
                #expect(name == "apple.resource.kill")
                #expect(record["severityNumber"] as? Int == 21)
                #expect(values["app.crash.id"] == nil)
            case .metricKitHang:
                #expect(name == "app.jank")
                #expect(values["metrickit.diagnostic.hang.hang_duration"]?["doubleValue"] is Double)
            default:
                #expect(record["severityNumber"] as? Int != 21)
            }
            if let process = incident.process {
                #expect(values["service.name"]?["stringValue"] as? String == process)
            }
            if let version = incident.osVersion {
                #expect(values["os.version"]?["stringValue"] as? String == version)
            }
        }
    }

    /// A metric payload's figures under OpenTelemetry Swift's names and units (seconds, bytes, counts, a ratio).
    @Test func metricPayloadFiguresUnderTheInstrumentationsNames() throws {
        let loaded = try CorpusIncidents.load("metrickit/ios17.4_metric_payload.json")
        #expect(loaded.incidents.isEmpty)
        let figures = try #require(loaded.metricPayloads.first)
        var values: [String: AttributeValue] = [:]
        for attribute in figures.attributes { values[attribute.key] = attribute.value }
        #expect(values["metrickit.cpu.cpu_time"] == .double(412))
        #expect(values["metrickit.cpu.instruction_count"] == .double(1_830_000_000))
        #expect(values["metrickit.memory.peak_memory_usage"] == .double(412_880_000))
        #expect(values["metrickit.animation.scroll_hitch_time_ratio"] == .double(0.0025))
        #expect(values["metrickit.app_exit.foreground.normal_app_exit_count"] == .int(14))
        #expect(values["metrickit.app_exit.foreground.memory_resource_limit_exit-count"] == .int(0))
        #expect(values["metrickit.app_exit.background.memory_pressure_exit_count"] == .int(22))
        #expect(values["metrickit.latest_application_version"] == .string("3.2.0"))
        let hang = try #require(values["metrickit.app_responsiveness.hang_time_average"])
        guard case .double(let seconds) = hang else {
            Issue.record("hang_time_average is not a double")
            return
        }
        #expect(seconds > 0 && seconds < 10)
    }

    @Test func nanosecondsComeFromTheDigitsAsWritten() throws {
        let loaded = try CorpusIncidents.load("crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash")
        let identified = BackendEvents.identified(loaded.incidents, contentDigest: loaded.digest)
        let document = try CorpusIncidents.object(OTLPLogWriter(toolVersion: "test").document(identified))
        let text = try SortedJSONEncoder().encode(OTLPLogWriter(toolVersion: "test").document(identified))
        // 2021-03-09T19:42:17.3861+01:00 is 1615315337.3861 s after the epoch.
        #expect(text.contains(#""timeUnixNano":"1615315337386100000""#))
        #expect(document["resourceLogs"] != nil)
    }
}
