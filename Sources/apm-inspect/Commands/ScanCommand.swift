import APMInspectCore
import ArgumentParser
import FleetReport
import Foundation
import ReportInspection
import ReportRendering
import ReportSources

/// `apm-inspect scan PATH...`: every report in folders and sysdiagnose archives, in parallel, streamed.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read every report in folders and archives (sysdiagnose .tar.gz, .tar) and summarise them.",
        discussion: """
            Sniffs every file (and every member of tar and tar.gz archives, without extracting them) and reads it \
            with the parser for its kind. --format ndjson streams one envelope per report as soon as it is read; \
            --format json prints {"files": [...envelopes], "inventory": {...}}; text prints the inventory: counts \
            by kind, crashes grouped by signature, watchdog kills, OOM kills with per-device memory limits, and \
            every file that could not be read. --format sentry, sentry-envelope and otel stream native events for \
            Sentry and OpenTelemetry instead (docs/backends.md).
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample(
            "A sysdiagnose archive, read without extracting it",
            "scan Corpus/sysdiagnose/*.tar.gz"
        ),
        HelpExample("A folder, one JSON envelope per report", "scan --format ndjson Corpus/crash"),
    ]

    @Argument(help: "Files, folders or archives (- for standard input).", completion: .file())
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output format.")
    var format: ScanFormat = .text

    @Option(name: .shortAndLong, help: "With --format sentry-envelope, a folder to write one envelope file per event.")
    var output: String?

    @Option(name: .shortAndLong, help: "Worker threads (default: the number of cores).")
    var jobs: Int?

    @Option(
        parsing: .upToNextOption,
        help: "Symbolicate crash reports with these dSYMs, Mach-O files, folders or zips."
    )
    var dsym: [String] = []

    @Option(
        help: """
            Only this app's reports (repeatable): a bundle id or process name; a JetsamEvent stays when the app was \
            killed or frontmost. The reports left out are counted in the summary (inventory.leftOutByApp).
            """
    )
    var app: [String] = []

    /// Results waiting for an earlier, slower one: a few hundred small records at most.
    static let reorderWindow = 256

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        try PathWalker.validate(paths)
        try BackendEventPrinter.validate(format: format.inspectFormat, output: output)
    }

    func run() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let walk = WalkedFiles(paths)
        let format = format.format
        var inspector = ReportInspector()
        inspector.digestsContent = self.format.inspectFormat.backend != nil
        inspector.symbolicator = ReportSymbolication.make(dsymPaths: dsym)?.symbolicator
        var configured = Scanner(
            inspector: inspector,
            temporary: temporary,
            format: format,
            backend: self.format.inspectFormat.backend.map {
                BackendEventPrinter(
                    format: $0,
                    directory: output,
                    inputs: output == nil ? [] : OutputFile.identities(of: paths),
                    toolVersion: APMInspect.configuration.version
                )
            }
        )
        let metricKit = MetricKitFleetTally()
        configured.metricKit = metricKit
        configured.selection = AppSelection(apps: app)
        let scanner = configured
        if format == .json { Console.out("{\n\"files\": [\n") }
        let progress = ProgressBar(
            total: walk.expectedFiles,
            label: "scan",
            streamsOutput: format != .text || scanner.backend != nil
        )
        let fold = ScanInventoryFold()
        // Each result is folded into the inventory as soon as it and those before it are in, so no record outlives
        // its turn; the window lets a slow input (a large archive) hold up the fold without stopping the workers.
        // Files are taken from the walk as workers ask for them: no list of every path is ever held.
        let scanned = ParallelMap.forEachInOrder(
            inputs: walk.next,
            jobs: jobs ?? ProcessInfoShim.activeProcessorCount,
            window: Self.reorderWindow,
            progress: { progress.advance() },
            transform: { file in
                // Once standard output is lost (a reader gone, a full disk), reading on is wasted work.
                guard !Console.outputFailed else { return Scanner.Result(records: [], findings: []) }
                if file.display == PathWalker.standardInputPath {
                    return scanner.scan(file: PathWalker.standardInputPath, shownAs: PathWalker.standardInputArgument)
                }
                return scanner.scan(file: file)
            },
            consume: { result in
                fold.add(records: result.records, findings: result.findings)
                return true
            }
        )
        progress.finish()
        // A reader that went away wanted no more: the run ends quietly (APMInspect.main).
        if Console.readerWentAway { return }
        var inventory = fold.inventory(files: scanned)
        if scanner.selection != nil { inventory.leftOutByApp = scanner.leftOut.current }
        let fleet = metricKit.summary()
        var backendFailed = false
        switch format {
        case _ where scanner.backend != nil:
            backendFailed = BackendEventPrinter.finish(scanner.backend, summary: ScanRenderer.summaryLine(inventory))
        case .json:
            var tail = "\n],\n\"inventory\": " + (try JSONOutput.encode(inventory, pretty: true))
            if !fleet.isEmpty { tail += ",\n\"metricKit\": " + (try JSONOutput.encode(fleet, pretty: true)) }
            Console.out(tail + "\n}\n")
        case .ndjson:
            Console.error("apm-inspect: note: " + ScanRenderer.summaryLine(inventory))
        default:
            Console.text(ScanRenderer.render(inventory, metricKit: fleet))
        }
        for item in inventory.unreadable { Console.error(item.reason) }
        if walk.failed || !inventory.unreadable.isEmpty || scanner.output.hadFailures || backendFailed {
            throw ExitCode(1)
        }
    }
}

/// Reads one path of a scan: a report, or an archive of them; prints envelopes as they come when streaming.
struct Scanner: Sendable {
    struct Result: Sendable {
        var records: [ScanRecord]
        var findings: [String]
    }

    let inspector: ReportInspector
    let temporary: TemporaryFolder
    let format: OutputFormat
    let output = OutputGate()
    /// Set for the backend formats: each inspection becomes native events instead of an envelope.
    let backend: BackendEventPrinter?
    /// Records keep the facts of the fleet report (`report` scans with this set).
    var keepsFleetFacts = false
    /// Folds the figures of every MetricKit file met (the scan's fleet view); nil when not wanted.
    var metricKit: MetricKitFleetTally?
    /// `--app`: reports of other apps are neither printed nor recorded, only counted in ``leftOut``.
    var selection: AppSelection?
    let leftOut = AtomicCounter()

    init(
        inspector: ReportInspector,
        temporary: TemporaryFolder,
        format: OutputFormat,
        backend: BackendEventPrinter? = nil
    ) {
        self.backend = backend
        self.inspector = inspector
        self.temporary = temporary
        self.format = format
    }

    private func record(_ inspection: Inspection) -> ScanRecord {
        if let metricKit, case .metricKit(let report) = inspection.report {
            metricKit.add(FleetEvent.metricKitFigures(report))
        }
        return ScanRecord(inspection, keepingFleetFacts: keepsFleetFacts)
    }

    /// Reads a path kept as bytes; a name that is not UTF-8 is read through `/proc/self/fd` and shown escaped.
    func scan(file raw: RawPath) -> Result {
        var records: [ScanRecord] = []
        let findings = InputReader(inspector: inspector, temporary: temporary).read(raw) { keep($0, in: &records) }
        return Result(records: records, findings: findings.map { Self.line(raw.display, $0) })
    }

    /// Reads the file at `path`, or each report inside it when it is an archive; `shown` names it in the output.
    func scan(file path: String, shownAs shown: String? = nil) -> Result {
        var records: [ScanRecord] = []
        let reader = InputReader(inspector: inspector, temporary: temporary)
        let findings = reader.read(path: path, shownAs: shown) { keep($0, in: &records) }
        return Result(records: records, findings: findings.map { Self.line(shown ?? path, $0) })
    }

    /// An archive's finding as the inventory lists it.
    private static func line(_ archive: String, _ finding: Diagnostic) -> String {
        "\(archive): \(finding.severity.rawValue): \(finding.message)"
    }

    /// Prints and records an inspection `--app` keeps.
    private func keep(_ inspection: Inspection, in records: inout [ScanRecord]) {
        guard keeps(inspection) else { return }
        emit(inspection)
        records.append(record(inspection))
    }

    /// True when `--app` keeps the inspection (always without `--app`); one left out is counted.
    private func keeps(_ inspection: Inspection) -> Bool {
        guard let selection, !selection.keeps(inspection) else { return true }
        _ = leftOut.increment()
        return false
    }

    private func emit(_ inspection: Inspection) {
        if let backend {
            backend.write(backend.render(inspection))
            return
        }
        guard format == .json || format == .ndjson else { return }
        if JSONOutput.emitEnvelope(
            inspection,
            arrayElement: format == .json,
            exclusive: output.exclusive,
            to: .console
        ) {
            output.recordFailure()
        }
    }

}

/// The MetricKit fleet view of a scan, fed by the worker threads: tallies only, so memory stays flat in the
/// number of payloads.
final class MetricKitFleetTally: @unchecked Sendable {
    private let lock = NSLock()
    private var fleet = MetricKitFleet()

    func add(_ figures: [FleetEvent.MetricKitFigures]) {
        lock.lock()
        defer { lock.unlock() }
        for entry in figures { fleet.add(entry) }
    }

    func summary() -> MetricKitFleetSummary {
        lock.lock()
        defer { lock.unlock() }
        return fleet.summary()
    }
}

/// Serialises lines written by worker threads, so NDJSON lines never interleave.
final class OutputGate: @unchecked Sendable {
    private let lock = NSLock()
    private var wroteFirst = false
    private var failures = 0

    /// True when an envelope had to be replaced by its error envelope (exit status 1).
    var hadFailures: Bool {
        lock.lock()
        defer { lock.unlock() }
        return failures > 0
    }

    func recordFailure() {
        lock.lock()
        defer { lock.unlock() }
        failures += 1
    }

    /// Runs `body` alone on the output, told whether a line was written before; a line is written by then.
    func exclusive(_ body: (_ wroteBefore: Bool) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(wroteFirst)
        wroteFirst = true
    }
}
