import APMInspectCore
import Foundation
import ReportInspection
import Testing

/// The library entry point: routing by content, the family registry, and the envelope's version.
@Suite struct ReportInspectorTests {
    static let root = CorpusGoldenTests.root

    static func corpus(_ relative: String) -> String { root.appendingPathComponent("Corpus/\(relative)").path }

    /// A family an embedder adds: recognises a made-up format by its first line.
    struct GreetingFamily: ReportFamily {
        struct Greeting: FamilyReport {
            var greeting: String
        }

        var name: String { "greeting" }

        func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
            guard input.bytes.starts(with: Array("HELLO ".utf8)) else { return nil }
            let rest = String(decoding: input.bytes.dropFirst(6), as: UTF8.self)
            return Inspection(
                file: input.path,
                kind: .unknown,
                diagnostics: [],
                report: .family(Greeting(greeting: rest)),
                failure: nil
            )
        }
    }

    @Test func bytesAndPathAreRoutedAlike() throws {
        let inspector = ReportInspector()
        for relative in [
            "crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash",
            "jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips",
            "kscrash/v2.0_ios12.4_arm64_sigabrt_abort_signal.json",
            "metrickit/ios17.4_metric_payload.json",
            "http/generated_http1_dns.pcap",
        ] {
            let path = Self.corpus(relative)
            let fromPath = try SortedJSONEncoder().encode(inspector.inspect(path: path))
            let fromBytes = try SortedJSONEncoder().encode(
                inspector.inspect(bytes: try FileReading.contents(atPath: path), path: path)
            )
            #expect(fromPath == fromBytes, "\(relative)")
        }
    }

    @Test func kindsOfTheCorpus() {
        let inspector = ReportInspector()
        let expected: [(String, FileKind)] = [
            ("crash/ios8.1.2_109_text_body_exc_crash_sigabrt.ips", .crashReport),
            ("watchdog/ios13.6_text_springboard_scene-create_8badf00d_semaphore.crash", .watchdogTermination),
            ("jetsam/ios12.1.4_iPhone11-8_headerless-body_per-process-limit.ips", .jetsamEvent),
            ("kscrash/v3.1.0_ios16.6_arm64_nsexception_unrecognized_selector.json", .kscrash),
            ("metrickit/ios15.7_disk_write_exception.json", .metrickit),
            ("http/charles_session.chlsj", .charlesSession),
            ("http/firefox_cache-hits_local-offset.har", .httpArchive),
            ("powerlog/ios15_offset-change_D16AP_19H12.PLSQL", .powerLog),
            ("powerlog/ios15_offset-change_D16AP_19H12_copy.PLSQL.gz", .powerLog),
        ]
        for (relative, kind) in expected {
            let inspection = inspector.inspect(path: Self.corpus(relative))
            #expect(inspection.kind == kind, "\(relative)")
            #expect(inspection.failure == nil, "\(relative)")
            #expect(inspection.report != nil, "\(relative)")
        }
    }

    @Test func aRegisteredFamilyIsAskedInItsPlace() throws {
        let bytes = Array("HELLO world".utf8)
        // Without it, the standard families see text that is no report.
        let plain = ReportInspector().inspect(bytes: bytes, path: "greeting.txt")
        guard case .unrecognised = plain.report else {
            Issue.record("expected an unrecognised file, got \(String(describing: plain.report))")
            return
        }
        let inspector = ReportInspector(families: ReportInspector.standardFamilies + [GreetingFamily()])
        let inspection = inspector.inspect(bytes: bytes, path: "greeting.txt")
        let json = try SortedJSONEncoder().encode(inspection)
        #expect(json.contains(#""report":{"greeting":"world"}"#))
        // Families before it still win: a crash report is not a greeting.
        let crash = inspector.inspect(
            path: Self.corpus("crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash")
        )
        #expect(crash.kind == .crashReport)
    }

    /// `FileKind` is open, so the registry's list is what says which kinds exist: it must be the documented
    /// vocabulary, the JSON schema's and docs/json-output.md's, no more and no less.
    @Test func theRegistryListsEveryDocumentedKind() throws {
        let kinds = ReportInspector.standardKinds.map(\.kind.rawValue)
        #expect(Set(kinds).count == kinds.count, "a kind listed twice: \(kinds)")
        let titles = ReportInspector.standardKinds.map(\.title)
        #expect(Set(titles).count == titles.count, "two kinds share a title: \(titles)")
        #expect(titles.allSatisfy { !$0.isEmpty })

        let schemaData = try Data(
            contentsOf: Self.root.appendingPathComponent("docs/schema/apm-inspect-output.schema.json")
        )
        let schema = try #require(try JSONSerialization.jsonObject(with: schemaData) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        let envelope = try #require(defs["envelope"] as? [String: Any])
        let properties = try #require(envelope["properties"] as? [String: Any])
        let kind = try #require(properties["kind"] as? [String: Any])
        let schemaKinds = try #require(kind["enum"] as? [String])
        #expect(Set(kinds) == Set(schemaKinds))

        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/json-output.md"), encoding: .utf8)
        let entry = try #require(doc.range(of: "- `kind`: "))
        let paragraph = doc[entry.upperBound...].prefix { $0 != "." }
        let documented = paragraph.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(Set(kinds) == Set(documented))
    }

    @Test func aKindIsTitledByItsFamily() {
        #expect(ReportInspector.title(of: .crashReport) == "Crash report")
        #expect(ReportInspector.title(of: .xccrashpointInfo) == "Xcode crash point metadata")
        #expect(ReportInspector.title(of: .archive) == "Archive")
        // A kind of a family registered from outside has no title here: it is shown by its JSON spelling.
        #expect(ReportInspector.title(of: FileKind(rawValue: "greeting")) == "greeting")
    }

    @Test func aFamilyListWithoutCrashReportsLeavesThemUnread() {
        let inspector = ReportInspector(families: [JetsamFamily()])
        let inspection = inspector.inspect(
            path: Self.corpus("crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash")
        )
        #expect(inspection.kind == .unknown)
        let jetsam = inspector.inspect(
            path: Self.corpus("jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips")
        )
        #expect(jetsam.kind == .jetsamEvent)
    }

    @Test func everyEnvelopeCarriesTheSchemaVersion() throws {
        #expect(Inspection.schemaVersion == 1)
        let missing = ReportInspector().inspect(path: "/nonexistent/apm-inspect/none.ips")
        #expect(missing.failure != nil)
        let json = try SortedJSONEncoder().encode(missing)
        #expect(json.contains(#""schemaVersion":1"#))
        #expect(json.contains(#""report":null"#))
        let empty = ReportInspector().inspect(bytes: [], path: "empty.ips")
        #expect(empty.failure?.code == "empty")
        #expect(try SortedJSONEncoder().encode(empty).contains(#""schemaVersion":1"#))
    }

    @Test func contentDigestsAreKeptOnlyForReportsThatBecomeEvents() throws {
        var inspector = ReportInspector()
        inspector.digestsContent = true
        let crashPath = Self.corpus("crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash")
        let crash = inspector.inspect(path: crashPath)
        #expect(crash.contentDigest == SHA256Digest.hash(try FileReading.contents(atPath: crashPath)))
        let capture = inspector.inspect(path: Self.corpus("http/generated_http1_dns.pcap"))
        #expect(capture.contentDigest == nil)
    }
}
