import APMInspectCore
import FleetReport
import Foundation
import HTTPCaptureParsing
import JetsamParsing
import PowerLogReading
import RenderingTestSupport
import ReportInspection
import ReportRendering
import Testing

/// Every output format of the renderers, compared byte for byte with reviewed files in `golden/`.
///
/// Inputs are the project's own `Corpus/` files, read through the libraries as the commands read them and named by
/// repository-relative paths. Nothing here depends on the clock or the time zone: the one renderer that reads the
/// clock (``BackendEventPrinter``'s `sent_at`) is given a fixed time. How to regenerate: ``Golden``.
@Suite struct RenderingGoldenTests {
    /// What a backend event says made it: fixed, so a release does not change the goldens.
    static let toolVersion = "0.0.0-golden"

    // MARK: Text

    /// `inspect FILE`: the text view of each family, as ``InspectionRenderer`` gives it to the console.
    @Test(
        arguments: [
            (
                "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash",
                "inspect-crash-ios14.4.txt"
            ),
            (
                "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips",
                "inspect-crash-ios17.2.1-309.txt"
            ),
            (
                "Corpus/crash/kscrash_style_ios14.8_recrash_handler_crashed_while_reporting_kvo_nsexception.crash",
                "inspect-crash-kscrash-recrash.txt"
            ),
            (
                "Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips",
                "inspect-jetsam-ios13.3.1.txt"
            ),
            ("Corpus/jetsam/ios15.5_iPhone13-1_truncated-mid-string.ips", "inspect-jetsam-ios15.5-truncated.txt"),
            (
                "Corpus/watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips",
                "inspect-watchdog-ios16.1.txt"
            ),
            (
                "Corpus/watchdog/ios14.7_text_runningboard_c00010ff_thermal.crash",
                "inspect-watchdog-ios14.7-thermal.txt"
            ),
            (
                "Corpus/metrickit/ios17.5_crash_objc_exception_nsrangeexception.json",
                "inspect-metrickit-ios17.5-crash.txt"
            ),
            (
                "Corpus/metrickit/ios16.4.1_two_payloads_hangs_per_thread_tree.json",
                "inspect-metrickit-ios16.4.1-hangs.txt"
            ),
            (
                "Corpus/kscrash/v3.1.0_ios16.6_arm64_nsexception_unrecognized_selector.json",
                "inspect-kscrash-v3.1.0.txt"
            ),
            (
                "Corpus/system/macos26.4_409_watchdog_compositord_service_unresponsive.ips",
                "inspect-system-watchdog-409.txt"
            ),
            ("Corpus/system/ios26.2_206_cpu_usage_fatal_nightjar_process_killed.ips", "inspect-resource-206.txt"),
            ("Corpus/http/chrome_h2_ssl-inside-connect.har", "inspect-http-chrome.txt"),
        ]
    )
    func inspectTextView(file: String, golden: String) throws {
        let inspection = try CorpusInput.inspection(file)
        Golden.expect(InspectionRenderer.render(inspection), matches: golden)
    }

    /// `inspect --threads all --frames all --images --registers`: the whole crash report, as Console.app shows it.
    @Test func crashFullView() throws {
        let inspection = try CorpusInput.inspection(
            "Corpus/crash/macos12.6_text_x86_64_exc_bad_access_gpflt_two_exception_codes_spliced_symbols.crash"
        )
        let options = CrashViewOptions(threads: .all, frameLimit: nil, images: true, registers: true)
        let view = InspectionRenderer.styled(inspection, crashView: options)
        Golden.expect(view.plain, matches: "inspect-crash-macos12.6-full.txt")
    }

    /// The whole view of KSCrash text whose handler crashed: the report's threads and state, then the recrash
    /// report's own exception, diagnosis, crashed thread and state as a section of their own.
    @Test func crashFullViewWithRecrash() throws {
        let inspection = try CorpusInput.inspection(
            "Corpus/crash/kscrash_style_ios14.8_recrash_handler_crashed_while_reporting_kvo_nsexception.crash"
        )
        let options = CrashViewOptions(threads: .all, frameLimit: nil, images: true, registers: true)
        let view = InspectionRenderer.styled(inspection, crashView: options)
        Golden.expect(view.plain, matches: "inspect-crash-kscrash-recrash-full.txt")
    }

    /// `inspect --color always`: the SGR codes around the crashed thread and the diagnostics.
    @Test func crashViewInColour() throws {
        let inspection = try CorpusInput.inspection(
            "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"
        )
        let view = InspectionRenderer.styled(inspection, crashView: .standard)
        Golden.expect(view.terminalText(color: true), matches: "inspect-crash-ios17.2.1-309-color.txt")
    }

    /// `http FILE`: the detailed summary, hosts, types and the waterfall of the slowest requests.
    @Test(
        arguments: [
            ("Corpus/http/chrome_h2_ssl-inside-connect.har", "http-chrome.txt"),
            ("Corpus/http/charles_session.chlsj", "http-charles.txt"),
            ("Corpus/http/generated_http1_keepalive_holes.pcap", "http-pcap-keepalive.txt"),
        ]
    )
    func httpSummary(file: String, golden: String) throws {
        let inspection = HTTPCaptureFamily.inspect(
            bytes: try CorpusInput.bytes(file),
            kind: nil,
            path: file,
            options: HTTPCaptureOptions(),
            summaryOnly: true
        )
        guard case .http(let capture) = inspection.report else {
            Issue.record("\(file) did not read as an HTTP capture")
            return
        }
        let text = HTTPRenderer.render(
            capture,
            file: inspection.file,
            title: InspectionRenderer.title(for: inspection.kind),
            detailed: true,
            slowest: 10
        )
        Golden.expect(text, matches: golden)
    }

    /// `energy FILE`: the text of one database (the summary reader, as the command uses for one file).
    @Test func energyText() throws {
        let file = "Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL"
        let result = try PowerLogReader().readSummary(
            bytes: try CorpusInput.bytes(file),
            name: file,
            limits: PowerLogSummaryLimits(keptRecent: 1000)
        )
        Golden.expect(
            PowerLogRenderer.energy(result.report, diagnostics: result.diagnostics, top: 15),
            matches: "energy-ios15.txt"
        )
    }

    /// `energy --plot`: the SVG of battery level and energy by hour, from the same summary read as the text.
    @Test func energyPlot() throws {
        let file = "Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL"
        let result = try PowerLogReader().readSummary(
            bytes: try CorpusInput.bytes(file),
            name: file,
            limits: PowerLogSummaryLimits(keptRecent: 1000)
        )
        Golden.expect(PowerLogPlot(report: result.report).svg(), matches: "energy-ios15-plot.svg")
    }

    /// `scan`'s text inventory of several corpus folders.
    @Test func scanSummary() throws {
        let fold = ScanInventoryFold()
        var files = 0
        for folder in Self.reportFolders {
            for file in try CorpusInput.files(in: folder) {
                files += 1
                fold.add(records: [ScanRecord(try CorpusInput.inspection(file))], findings: [])
            }
        }
        Golden.expect(ScanRenderer.render(fold.inventory(files: files)), matches: "scan-summary.txt")
    }

    // MARK: Memory limits: text, Markdown, CSV, JSON, NDJSON

    @Test func memoryLimitsText() throws {
        let (rows, summary) = try Self.memoryLimits()
        let text = MemoryLimitsRenderer.text(rows) + "\n" + MemoryLimitsRenderer.summaryLine(summary) + "\n"
        Golden.expect(text, matches: "memory-limits.txt")
    }

    @Test func memoryLimitsMarkdown() throws {
        let (rows, summary) = try Self.memoryLimits()
        let text = MemoryLimitsRenderer.markdown(rows) + "\n" + MemoryLimitsRenderer.summaryLine(summary) + "\n"
        Golden.expect(text, matches: "memory-limits.md")
    }

    @Test func memoryLimitsCSV() throws {
        Golden.expect(MemoryLimitsRenderer.csv(try Self.memoryLimits().rows), matches: "memory-limits.csv")
    }

    @Test func memoryLimitsJSON() throws {
        let rows = try Self.memoryLimits().rows
        let pretty = OutputCollector()
        try JSONOutput.print(rows, pretty: true, to: pretty.sink)
        Golden.expect(pretty.output, matches: "memory-limits.json")
        let lines = OutputCollector()
        for row in rows { try JSONOutput.print(row, pretty: false, to: lines.sink) }
        Golden.expect(lines.output, matches: "memory-limits.ndjson")
    }

    // MARK: Fleet report: text, Markdown, HTML, JSON

    @Test func fleetReportText() throws {
        Golden.expect(FleetReportTextRenderer.text(try Self.fleetSummary()), matches: "report.txt")
    }

    @Test func fleetReportMarkdown() throws {
        Golden.expect(FleetReportTextRenderer.markdown(try Self.fleetSummary()), matches: "report.md")
    }

    @Test func fleetReportHTML() throws {
        Golden.expect(FleetReportHTMLRenderer.render(try Self.fleetSummary()), matches: "report.html")
    }

    @Test func fleetReportJSON() throws {
        Golden.expect(try JSONOutput.encode(try Self.fleetSummary(), pretty: true) + "\n", matches: "report.json")
    }

    // MARK: JSON envelopes and backend events

    /// `inspect --format json FILE`: one pretty envelope.
    @Test(
        arguments: [
            (
                "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash",
                "inspect-crash-ios14.4.json"
            ),
            ("Corpus/jetsam/ios15.5_iPhone13-1_truncated-mid-string.ips", "inspect-jetsam-ios15.5-truncated.json"),
        ]
    )
    func inspectEnvelope(file: String, golden: String) throws {
        let output = OutputCollector()
        let failed = JSONOutput.printEnvelope(try CorpusInput.inspection(file), pretty: true, to: output.sink)
        #expect(!failed)
        #expect(output.errors.isEmpty)
        Golden.expect(output.output, matches: golden)
    }

    /// `inspect --format ndjson` of a folder: one envelope a line, in the order given.
    @Test func inspectNDJSON() throws {
        let inspections = try CorpusInput.files(in: "Corpus/watchdog").map { try CorpusInput.inspection($0) }
        let output = OutputCollector()
        #expect(!JSONOutput.printEnvelopes(inspections, format: .ndjson, single: false, to: output.sink))
        Golden.expect(output.output, matches: "inspect-watchdog.ndjson")
    }

    /// `inspect --format sentry` and `--format otel`: the events of a crash, a watchdog kill and a JetsamEvent.
    @Test(arguments: [BackendFormat.sentry, .otel])
    func backendEvents(format: BackendFormat) throws {
        var inspector = ReportInspector()
        inspector.digestsContent = true
        let output = OutputCollector()
        let printer = BackendEventPrinter(
            format: format,
            directory: nil,
            toolVersion: Self.toolVersion,
            now: Date(timeIntervalSince1970: 1_700_000_000),
            sink: output.sink,
            writeFile: { _, path in "no file may be written here (\(path))" }
        )
        for file in [
            "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash",
            "Corpus/watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips",
            "Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips",
        ] {
            printer.write(printer.render(try CorpusInput.inspection(file, with: inspector)))
        }
        #expect(printer.finish().isEmpty)
        Golden.expect(output.output, matches: "backend-\(format.rawValue).ndjson")
    }

    // MARK: Inputs

    /// The folders of reports the scan and fleet goldens read (no captures or databases: their own goldens above).
    static let reportFolders = [
        "Corpus/crash", "Corpus/kscrash", "Corpus/watchdog", "Corpus/jetsam", "Corpus/metrickit", "Corpus/system",
    ]

    /// `memory-limits Corpus/jetsam` without `--include-all`: the rows and the counts under the table.
    static func memoryLimits() throws -> (rows: [MemoryLimitRow], summary: MemoryLimitsRenderer.Summary) {
        let fold = MemoryLimitsFold(options: MemoryLimitTable.Options())
        let collector = MemoryLimitCollector()
        let files = try CorpusInput.files(in: "Corpus/jetsam")
        for file in files {
            fold.add([(nil, collector.evidence(in: try CorpusInput.bytes(file)))], shown: file)
        }
        let (rows, summary, failures) = fold.finish(files: files.count)
        #expect(failures.isEmpty)
        return (rows, summary)
    }

    /// `report` over the report folders: what each inspection gives the fleet report, aggregated in input order.
    static func fleetSummary() throws -> FleetSummary {
        var aggregator = FleetAggregator()
        for folder in reportFolders {
            for file in try CorpusInput.files(in: folder) {
                aggregator.add(try CorpusInput.inspection(file).fleetEvent)
            }
        }
        return aggregator.summary()
    }
}
