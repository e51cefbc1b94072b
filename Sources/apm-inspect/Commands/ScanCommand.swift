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
        let symbolication = ReportSymbolication.make(dsymPaths: dsym)
        inspector.symbolicator = symbolication?.symbolicator
        var configured = ReportScanner(
            inspector: inspector,
            temporary: temporary,
            format: format,
            sink: .console,
            backend: self.format.inspectFormat.backend.map {
                BackendEventPrinter(
                    format: $0,
                    directory: output,
                    inputs: output == nil ? [] : OutputFile.identities(of: paths),
                    toolVersion: APMInspect.configuration.version,
                    imageVMAddress: symbolication.map { BackendEventPrinter.vmAddresses(from: $0.symbolicator.source) }
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
                guard !Console.outputFailed else { return ReportScanner.Result(records: [], findings: []) }
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
