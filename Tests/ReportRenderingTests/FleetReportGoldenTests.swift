import APMInspectCore
import FleetReport
import Foundation
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import Testing

/// One fleet report in its four formats, compared byte for byte with reviewed files in `golden/fleet-*`.
///
/// The inputs are chosen to show what a release manager reads the report for: several apps, each with several
/// versions (`2.10.0` after `2.9.1`, compared only within one app); a group seen in several versions whose newest
/// version is rare; a group seen only in its app's newest version; crashes on sparse days months apart; more files
/// per group than are listed; and files the report skips (an HTTP capture, a header-only crash report, an empty
/// file) beside an archive's finding. The crashes of one app, Lumen, are made from one `Corpus/` report with its
/// version, build, device, date (and once its exception) changed, named `crafted/...` so no golden passes them off
/// as corpus files. Two crafted JetsamEvents (``JetsamFixture``) kill Lumen at its limit: one names its binary's
/// UUID (tied to the version of the reports with that UUID), one only its process name (tied to 2.9.0, reported on
/// the same iPhone14,5 the day before), beside another app killed under memory pressure. The time the report says
/// it was made is fixed. How to regenerate: ``Golden``.
@Suite struct FleetReportGoldenTests {
    @Test func fleetText() throws {
        Golden.expect(FleetReportTextRenderer.text(try Self.summary()), matches: "fleet-report.txt")
    }

    @Test func fleetMarkdown() throws {
        Golden.expect(FleetReportTextRenderer.markdown(try Self.summary()), matches: "fleet-report.md")
    }

    @Test func fleetJSON() throws {
        Golden.expect(try JSONOutput.encode(try Self.summary(), pretty: true) + "\n", matches: "fleet-report.json")
    }

    @Test func fleetHTML() throws {
        Golden.expect(FleetReportHTMLRenderer.render(try Self.summary()), matches: "fleet-report.html")
    }

    /// What the goldens show, asserted too, so a regenerated golden that lost it fails here.
    @Test func perAppNewestVersionsAndCells() throws {
        let summary = try Self.summary()
        let crashes = summary.crashes
        #expect(crashes.newestVersionByApp["com.brightleaf.lumen"] == "2.10.0")
        #expect(!crashes.newestVersionByApp.values.contains { $0.isEmpty || $0.allSatisfy { $0 == "?" } })
        let lumen = crashes.groups.filter { $0.app == "com.brightleaf.lumen" }
        let seenInMany = try #require(lumen.first { !$0.newInNewestVersion })
        let onlyNewest = try #require(lumen.first { $0.newInNewestVersion })
        #expect(onlyNewest.appNewestVersion == "2.10.0")
        #expect(seenInMany.appVersions.values.count == 5)
        // The newest version (one crash) is shown; the two versions left out are counted, not their crashes.
        let cell = FleetReportTextRenderer.values(seenInMany.appVersions, keeping: seenInMany.newestVersionSeen)
        #expect(cell == "2.3.1 (3), 2.8 (2), 2.10.0 (1), +2 more")
        #expect(seenInMany.files.count == 5 && seenInMany.moreFiles == seenInMany.count - 5)
        #expect(summary.inputs.skipped.map(\.file).contains("crafted/empty.ips"))
        // A group of another app, in an older version number than Lumen's, is new in its own app's newest version.
        #expect(crashes.groups.contains { $0.app != "com.brightleaf.lumen" && $0.newInNewestVersion })
        // Lumen's kills in the OOM truth table: one tied by its binary UUID, one by name to the version reported on
        // that device the day before; the other app killed under pressure is left out.
        let lumenOOMs = summary.oom.byVersionAndDevice.filter { $0.app == "com.brightleaf.lumen" }
        #expect(lumenOOMs.map(\.version) == ["2.10.0", "2.9.0"])
        #expect(lumenOOMs.map(\.jetsamLinks.uuid) == [1, 0] && lumenOOMs.map(\.jetsamLinks.name) == [0, 1])
        #expect(lumenOOMs.allSatisfy { $0.confirmed.sources == ["jetsamEvent": 1] })
        #expect(lumenOOMs.map(\.memoryLimitMB) == [3040, 2880])
        #expect(!summary.oom.byVersionAndDevice.contains { $0.app == "Quillpad" })
    }

    // MARK: Inputs

    static let lumen = "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"

    /// Lumen's crashes: (version, build, device, UTC day and time, exception changed).
    static let lumenCrashes: [(String, String, String, String, Bool)] = [
        ("2.3.1", "57", "iPhone12,1", "2024-01-03 08:10:00", false),
        ("2.3.1", "57", "iPhone12,1", "2024-01-03 21:45:12", false),
        ("2.3.1", "57", "iPhone11,8", "2024-01-04 09:00:30", false),
        ("2.8", "71", "iPhone13,2", "2024-02-20 12:00:00", false),
        ("2.8", "71", "iPhone14,5", "2024-02-21 18:30:00", false),
        ("2.9.0", "80", "iPhone14,5", "2024-03-15 07:00:00", false),
        ("2.9.0", "80", "iPhone15,2", "2024-03-15 07:05:00", false),
        ("2.9.1", "82", "iPad13,4", "2024-04-02 10:00:00", false),
        ("2.10.0", "95", "iPhone15,2", "2024-05-01 16:20:00", false),
        ("2.10.0", "95", "iPhone15,2", "2024-05-01 16:40:00", true),
        ("2.10.0", "95", "iPhone12,1", "2024-05-09 23:59:59", true),
    ]

    /// Reports of other apps, other families, and files the report skips.
    static let corpusFiles = [
        "Corpus/metrickit/ios17.5_crash_objc_exception_nsrangeexception.json",
        "Corpus/metrickit/ios27.0_diagnostic_report_crash_bad_access.json",
        "Corpus/metrickit/ios27.0_diagnostic_report_memory_exception.json",
        "Corpus/metrickit/ios17.4_metric_payload.json",
        "Corpus/crash/plcrashreporter_style_ios15_sigbus_bus_adraln_empty_version_third_party_comment_symbols.crash",
        "Corpus/crash/ios12.2_text_header_only_testflight_beta_identifier.crash",
        "Corpus/kscrash/v3.7.0_ios18.2_arm64_hang_recovered_sqlite_main_thread.json",
        "Corpus/kscrash/v3.7.0_ios18.2_arm64_watchdog_0x8badf00d_launch_hang.json",
        "Corpus/watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips",
        "Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips",
        "Corpus/jetsam/ios11.2.6_iPhone7-1_pagesize4096_per-process-limit_650MB.ips",
        "Corpus/http/chrome_h2_ssl-inside-connect.har",
    ]

    /// One of Lumen's crashes: the corpus report with its version, device and date (and exception) changed.
    static func lumenCrash(_ crash: (String, String, String, String, Bool)) throws -> (path: String, bytes: [UInt8]) {
        let (version, build, device, date, otherException) = crash
        var text = String(decoding: try CorpusInput.bytes(lumen), as: UTF8.self)
        // Each crash its own incident, as on a device: one incident id is one crash, linked wherever it appears.
        let digits = Array((date + device + version).utf8).reduce(UInt64(14_695_981_039_346_656_037)) {
            ($0 ^ UInt64($1)) &* 1_099_511_628_211
        }
        let hex = String(digits & 0xFFFF_FFFF_FFFF, radix: 16, uppercase: true)
        let incident = "2C81E17F-3922-4B00-9E4A-" + String(repeating: "0", count: 12 - hex.count) + hex
        let replacements = [
            ("Incident Identifier: 2C81E17F-3922-4B00-9E4A-15A6AD2951F8", "Incident Identifier: \(incident)"),
            ("Version:             57 (2.3.1)", "Version:             \(build) (\(version))"),
            ("Hardware Model:      iPhone12,1", "Hardware Model:      \(device)"),
            ("Date/Time:           2021-03-09 19:42:17.3861 +0100", "Date/Time:           \(date).0000 +0000"),
            ("Launch Time:         2021-03-09 19:38:02.5512 +0100", "Launch Time:         \(date).0000 +0000"),
        ]
        for (old, new) in replacements {
            #expect(text.contains(old), "the corpus report changed: \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        if otherException {
            text = text.replacingOccurrences(
                of: "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)",
                with: "Exception Type:  EXC_BAD_ACCESS (SIGBUS)"
            )
        }
        // `2024-01-03 08:10:00` → `2024-01-03T0810`: one file per crash.
        let time = date.prefix(10) + "T" + date.dropFirst(11).prefix(5).filter { $0 != ":" }
        let path = "crafted/lumen/\(version)/\(time)_\(device)\(otherException ? "_sigbus" : "").crash"
        return (path, Array(text.utf8))
    }

    /// Lumen killed at its limit: by UUID on an iPhone15,2, by name only on an iPhone14,5 (with Quillpad, another app,
    /// killed under memory pressure).
    static let lumenJetsamEvents: [(path: String, bytes: [UInt8])] = [
        (
            "crafted/jetsam/JetsamEvent-2024-05-02.ips",
            JetsamFixture.report(
                [
                    JetsamFixture.Entry(
                        "Lumen",
                        states: ["frontmost", "resume"],
                        reason: "per-process-limit",
                        pid: 2211,
                        rpages: 194_560,
                        priority: 100,
                        uuid: "d61e2520-a303-382f-b51d-1d5d1c045cb6"
                    ),
                    .idleDaemon("mediaserverd"),
                ],
                incident: "3F6A2C81-5B07-4D9E-A1C4-7E2B9D0F6A35",
                product: "iPhone15,2",
                date: "2024-05-02 09:30:00"
            )
        ),
        (
            "crafted/jetsam/JetsamEvent-2024-03-16.ips",
            JetsamFixture.report(
                [
                    JetsamFixture.Entry(
                        "Lumen",
                        states: ["frontmost", "resume"],
                        reason: "per-process-limit",
                        pid: 1874,
                        rpages: 184_320,
                        priority: 100
                    ),
                    JetsamFixture.Entry("Quillpad", states: ["suspended"], reason: "vm-pageshortage", rpages: 12_000),
                ],
                incident: "8C1E5A93-2D46-4B7F-9E08-C3A6F1D2B457",
                product: "iPhone14,5",
                date: "2024-03-16 08:15:00"
            )
        ),
    ]

    /// The report of the files above, folded in this order, made at a fixed time.
    static func summary() throws -> FleetSummary {
        var aggregator = FleetAggregator()
        let inspector = ReportInspector()
        for crash in lumenCrashes {
            let (path, bytes) = try lumenCrash(crash)
            aggregator.add(inspector.inspect(bytes: bytes, path: path).fleetEvent)
        }
        for (path, bytes) in lumenJetsamEvents {
            aggregator.add(inspector.inspect(bytes: bytes, path: path).fleetEvent)
        }
        for file in corpusFiles { aggregator.add(try CorpusInput.inspection(file).fleetEvent) }
        aggregator.add(inspector.inspect(bytes: [], path: "crafted/empty.ips").fleetEvent)
        // An archive's finding, as `report` notes it when a tar archive ends early.
        let finding = #"{"severity":"warning","code":"archive.truncated","message":"the archive ends inside a member"}"#
        let diagnostic = try JSONDecoder().decode(Diagnostic.self, from: Data(finding.utf8))
        aggregator.note(FleetFinding(file: "crafted/devices.tar.gz", diagnostic: diagnostic))
        var summary = aggregator.summary()
        summary.generatedAt = FleetReportRun.utcTimestamp(Date(timeIntervalSince1970: 1_717_243_200))
        return summary
    }
}
