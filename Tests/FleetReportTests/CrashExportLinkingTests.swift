import APMInspectCore
import FleetReport
import Foundation
import RenderingTestSupport
import ReportInspection
import ReportRendering
import Testing

/// `scan --format sentry|sentry-envelope|otel` exports one crash once: the copies the reporters sent are linked by
/// the fleet report's ledger and the richest is exported, naming the others.
///
/// The inputs are `CrashLinkingTests`' Harbor crash: Apple's 309 report of it, a KSCrash report and a MetricKit
/// diagnostic (crafted), plus another crash of the same app and minute, and the `.ips`'s text translation.
@Suite struct CrashExportLinkingTests {

    /// A printer as `scan` makes it, holding crash events in a fresh folder when `linking`.
    static func printer(_ format: BackendFormat, linking: Bool, to collector: OutputCollector) throws
        -> BackendEventPrinter
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crash-export-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return BackendEventPrinter(
            format: format,
            directory: nil,
            toolVersion: "0.0.0-test",
            now: Date(timeIntervalSince1970: 1_706_000_000),
            sink: collector.sink,
            linkingCrashesIn: linking ? folder.path : nil,
            writeFile: { _, path in "no file may be written here (\(path))" }
        )
    }

    static func inspections(_ inputs: [(String, [UInt8])]) -> [Inspection] {
        var inspector = ReportInspector()
        inspector.digestsContent = true
        return inputs.map { inspector.inspect(bytes: $1, path: $0) }
    }

    /// The lines a scan of `inputs` prints, and the printer's notes.
    static func export(_ inputs: [(String, [UInt8])], format: BackendFormat = .sentry, linking: Bool = true) throws
        -> (lines: [String], errors: [String])
    {
        let collector = OutputCollector()
        let printer = try printer(format, linking: linking, to: collector)
        for inspection in inspections(inputs) { printer.write(printer.render(inspection)) }
        #expect(printer.finish(summary: "test", sink: collector.sink) == false)
        return (collector.output.split(separator: "\n").map(String.init), collector.errors)
    }

    static func object(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func tags(_ event: [String: Any]) -> [String: String] { event["tags"] as? [String: String] ?? [:] }

    /// The `.ips` as Apple's text, which keeps its incident identifier.
    static func textTranslation() throws -> [UInt8] {
        let translated = ReportTranslation.crash(try CrashLinkingTests.corpus(CrashLinkingTests.ips), layout: nil)
        let text = try #require(translated.reports?.first?.text)
        #expect(text.contains("Incident Identifier: 89EA024E-56BA-4C8D-909D-F6740E7CAF7D"))
        return Array(text.utf8)
    }

    static let badAccess = (
        "crafted/Harbor-badaccess.json", CrashLinkingTests.kscrash(frames: CrashLinkingTests.badAccessFrames)
    )

    // MARK: Sentry

    @Test func threeCopiesOfOneCrashAreExportedOnceTheRichestNamingTheOthers() throws {
        let inputs = try CrashLinkingTests.sameCrash()
        let separate = try Self.export(inputs, linking: false).lines.map(Self.object)
        #expect(separate.count == 3)
        let ipsEventID = try #require(separate.first?["event_id"] as? String)

        let (lines, errors) = try Self.export(inputs)
        #expect(lines.count == 1)
        let event = try Self.object(try #require(lines.first))
        // The richest is Apple's report: as many symbolicated crashed-thread frames as KSCrash's, more threads.
        #expect(event["event_id"] as? String == ipsEventID)
        #expect(Self.tags(event)["apm_inspect.linked_sources"] == "kscrash,metrickit")
        #expect(Self.tags(event)["kind"] == "crash")
        let contexts = try #require(event["contexts"] as? [String: Any])
        let links = try #require(contexts["apm_inspect_links"] as? [String: Any])
        #expect(links["count"] as? Int == 3)
        // No `type`: its key is its type, and sentry-cli's event model refuses a `type` it does not know.
        #expect(links["type"] == nil)
        let reports = try #require(links["reports"] as? [[String: String]])
        #expect(reports.map { $0["source"] } == ["kscrash", "metrickit"])
        #expect(reports.map { $0["file"] } == [inputs[1].0, inputs[2].0])
        // Each left-out report is named by the id its own event has when exported alone.
        let otherIDs = Set(separate.dropFirst().compactMap { $0["event_id"] as? String })
        #expect(Set(reports.compactMap { $0["event_id"] }) == otherIDs)
        // The rest of the event is the `.ips`'s own, untouched.
        var unlinked = event
        var unlinkedTags = Self.tags(event)
        unlinkedTags["apm_inspect.linked_sources"] = nil
        unlinked["tags"] = unlinkedTags
        var unlinkedContexts = contexts
        unlinkedContexts["apm_inspect_links"] = nil
        unlinked["contexts"] = unlinkedContexts
        #expect(NSDictionary(dictionary: unlinked).isEqual(to: try #require(separate.first)))
        #expect(errors.contains { $0.contains("2 crash report(s) not exported") })
    }

    @Test func twoDifferentCrashesAreBothExportedUnlinked() throws {
        let inputs = [(CrashLinkingTests.ips, try CrashLinkingTests.corpus(CrashLinkingTests.ips)), Self.badAccess]
        let (lines, errors) = try Self.export(inputs)
        #expect(lines.count == 2)
        for line in lines {
            let event = try Self.object(line)
            #expect(Self.tags(event)["apm_inspect.linked_sources"] == nil)
            #expect((event["contexts"] as? [String: Any])?["apm_inspect_links"] == nil)
        }
        #expect(!errors.contains { $0.contains("not exported") })
    }

    @Test func anIPSAndItsTextTranslationLinkByIncidentIdentifier() throws {
        let ips = (CrashLinkingTests.ips, try CrashLinkingTests.corpus(CrashLinkingTests.ips))
        let text = ("translated/Harbor-2024-01-18-140249.crash", try Self.textTranslation())
        let (lines, _) = try Self.export([text, ips])
        #expect(lines.count == 1)
        let event = try Self.object(try #require(lines.first))
        #expect(Self.tags(event)["apm_inspect.linked_sources"] == "crashReport")
        #expect(Self.tags(event)["incident_id"] == "89EA024E-56BA-4C8D-909D-F6740E7CAF7D")

        // The fleet report counts them once, both listed on the group.
        let summary = CrashLinkingTests.summary(CrashLinkingTests.events([ips, text]))
        #expect(summary.crashes.total == 1)
        #expect(summary.crashes.reports == 2 && summary.crashes.duplicatesLinked == 1)
        #expect(summary.crashes.groups.first?.sources == ["crashReport": 2])

        // Another incident identifier: two Apple reports, one per source, do not link, however close in time.
        var other = String(decoding: text.1, as: UTF8.self)
        other = other.replacingOccurrences(
            of: "89EA024E-56BA-4C8D-909D-F6740E7CAF7D",
            with: "0F3B6A21-7C4D-4E58-9A1B-2C3D4E5F6A7B"
        )
        let apart = [ips, ("translated/other.crash", Array(other.utf8))]
        #expect(try Self.export(apart).lines.count == 2)
        #expect(CrashLinkingTests.summary(CrashLinkingTests.events(apart)).crashes.total == 2)

        // One incident id on two different exceptions is an id reused, not one crash.
        let retyped = String(decoding: text.1, as: UTF8.self)
            .replacingOccurrences(
                of: "Exception Type:  EXC_CRASH (SIGABRT)",
                with: "Exception Type:  EXC_CRASH (SIGKILL)"
            )
        #expect(retyped.contains("(SIGKILL)"))
        let reused = [ips, ("translated/retyped.crash", Array(retyped.utf8))]
        #expect(CrashLinkingTests.summary(CrashLinkingTests.events(reused)).crashes.total == 2)

        // An all-zero id is a placeholder, not an incident: two reports that both carry it stay two.
        let zero = "00000000-0000-0000-0000-000000000000"
        let placeholders = [ips.1, text.1].map { bytes in
            Array(
                String(decoding: bytes, as: UTF8.self)
                    .replacingOccurrences(of: "89EA024E-56BA-4C8D-909D-F6740E7CAF7D", with: zero).utf8
            )
        }
        let zeroed = [("zeroed/Harbor.ips", placeholders[0]), ("zeroed/Harbor.crash", placeholders[1])]
        #expect(CrashLinkingTests.summary(CrashLinkingTests.events(zeroed)).crashes.total == 2)
    }

    @Test func theExportDoesNotDependOnTheOrderOfTheInputs() throws {
        let inputs =
            try CrashLinkingTests.sameCrash() + [
                Self.badAccess, ("translated/Harbor.crash", try Self.textTranslation()),
            ]
        let collector = OutputCollector()
        let renderer = try Self.printer(.sentry, linking: true, to: collector)
        let rendered = Self.inspections(inputs).map(renderer.render)
        var outputs: Set<String> = []
        var runs = 0
        for permutation in CrashLinkingTests.permutations(Array(rendered.indices)) {
            let collector = OutputCollector()
            let printer = try Self.printer(.sentry, linking: true, to: collector)
            for index in permutation { printer.write(rendered[index]) }
            #expect(printer.finish().isEmpty)
            outputs.insert(collector.output)
            runs += 1
        }
        #expect(runs == 120)
        #expect(outputs.count == 1)
        let lines = try #require(outputs.first).split(separator: "\n").map(String.init)
        // The Harbor abort (four reports) and the bad access.
        #expect(lines.count == 2)
        let linked = try lines.map { Self.tags(try Self.object($0))["apm_inspect.linked_sources"] }
        #expect(linked.contains("crashReport,kscrash,metrickit"))
        #expect(linked.contains(nil))
    }

    @Test func otherEventsStreamWhileCrashesWaitForTheEnd() throws {
        let collector = OutputCollector()
        let printer = try Self.printer(.sentry, linking: true, to: collector)
        let jetsam = "Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"
        let inputs = [(jetsam, try CrashLinkingTests.corpus(jetsam))] + (try CrashLinkingTests.sameCrash())
        for inspection in Self.inspections(inputs) { printer.write(printer.render(inspection)) }
        let streamed = collector.output.split(separator: "\n")
        #expect(streamed.count == 1)
        #expect(try Self.tags(Self.object(String(streamed[0])))["kind"] == "oom")
        #expect(printer.finish().isEmpty)
        #expect(collector.output.split(separator: "\n").count == 2)
    }

    // MARK: Envelopes and OTLP

    @Test func threeCopiesMakeOneEnvelopeOnStandardOutput() throws {
        let collector = OutputCollector()
        let printer = try Self.printer(.sentryEnvelope, linking: true, to: collector)
        for inspection in Self.inspections(try CrashLinkingTests.sameCrash()) {
            printer.write(printer.render(inspection))
        }
        // Three envelopes would need -o DIR: one crash is one envelope.
        #expect(printer.finish().isEmpty)
        let lines = collector.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        let item = try Self.object(lines[1])
        #expect(item["length"] as? Int == lines[2].utf8.count)
        #expect(Self.tags(try Self.object(lines[2]))["apm_inspect.linked_sources"] == "kscrash,metrickit")
    }

    @Test func otlpExportsOneRecordWithTheLinkedSourcesAsAttributes() throws {
        let inputs = try CrashLinkingTests.sameCrash()
        let separate = try Self.export(inputs, format: .otel, linking: false).lines
        #expect(separate.count == 3)
        let (lines, _) = try Self.export(inputs, format: .otel)
        #expect(lines.count == 1)
        let document = try Self.object(try #require(lines.first))
        let resourceLogs = try #require(document["resourceLogs"] as? [[String: Any]])
        let scopeLogs = try #require(resourceLogs.first?["scopeLogs"] as? [[String: Any]])
        let records = try #require(scopeLogs.first?["logRecords"] as? [[String: Any]])
        #expect(records.count == 1)
        let attributes = try #require(records.first?["attributes"] as? [[String: Any]])
        func value(_ key: String) -> [String: Any]? {
            attributes.first { $0["key"] as? String == key }?["value"] as? [String: Any]
        }
        #expect(value("event.name")?["stringValue"] as? String == "app.crash")
        #expect(value("apm_inspect.linked_sources")?["stringValue"] as? String == "kscrash,metrickit")
        #expect(value("apm_inspect.linked_reports")?["intValue"] as? String == "3")
        let ids = try #require(value("apm_inspect.linked_event_ids")?["stringValue"] as? String)
        #expect(ids.split(separator: ",").count == 2 && ids.utf8.count == 2 * 36 + 1)
    }
}
