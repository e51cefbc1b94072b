import APMInspectCore
import ArgumentParser
import ReportInspection
import ReportRendering
import ReportSources

/// `apm-inspect scan PATH...`: every report in folders and sysdiagnose archives, in parallel, streamed.
struct ScanCommand: ParsableCommand, PrintsTables {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read every report in folders and archives (sysdiagnose .tar.gz, .tar) and summarise them.",
        discussion: """
            Sniffs every file (and every member of tar and tar.gz archives, without extracting them) and reads it \
            with the parser for its kind. --format ndjson streams one envelope per report as soon as it is read; \
            --format json prints {"files": [...envelopes], "inventory": {...}}; text prints the inventory: counts \
            by kind, crashes grouped by signature, watchdog kills, OOM kills with per-device memory limits, and \
            every file that could not be read. --format sentry, sentry-envelope and otel stream native events for \
            Sentry and OpenTelemetry instead (docs/backends.md), each crash once: its copies from several \
            reporters are linked as in the fleet report and the richest is exported at the end (--keep-duplicates \
            exports them all as they are read).
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
        help: "Symbolicate crash reports with this dSYM, Mach-O file, folder or zip (repeatable: one path each)."
    )
    var dsym: [String] = []

    @OptionGroup var symbolOptions: SymbolOptions

    @Option(
        help: """
            Only this app's reports (repeatable): a bundle id or process name; a JetsamEvent stays when the app was \
            killed or frontmost. The reports left out are counted in the summary (inventory.leftOutByApp).
            """
    )
    var app: [String] = []

    @Flag(
        help: """
            With --format sentry, sentry-envelope or otel, export every crash report as it is read, even the copies \
            of one crash another report of the inputs already gives (a KSCrash report, a MetricKit diagnostic and \
            Apple's .ips of it). Without it those copies are linked and the richest alone is exported, after the \
            other events, naming the rest.
            """
    )
    var keepDuplicates = false

    @OptionGroup var tableOptions: TableOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        try PathWalker.validate(paths)
        try BackendEventPrinter.validate(format: format.inspectFormat, output: output)
        if keepDuplicates, format.inspectFormat.backend == nil {
            throw ValidationError("--keep-duplicates applies to --format sentry, sentry-envelope and otel only")
        }
    }

    func run() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let walk = WalkedFiles(paths)
        var inspector = ReportInspector()
        inspector.digestsContent = format.inspectFormat.backend != nil
        let symbolication = ReportSymbolication.make(dsymPaths: dsym, symbols: symbolOptions.sources, sink: .console)
        inspector.symbolicator = symbolication?.symbolicator
        let run = ScanRun(
            inspector: inspector,
            temporary: temporary,
            format: format.format,
            backend: format.inspectFormat.backend.map {
                BackendEventPrinter(
                    format: $0,
                    directory: output,
                    inputs: output == nil ? [] : OutputFile.identities(of: paths),
                    toolVersion: APMInspect.configuration.version,
                    imageVMAddress: symbolication.map { BackendEventPrinter.vmAddresses(from: $0.symbolicator.source) },
                    linkingCrashesIn: keepDuplicates ? nil : temporary.path
                )
            },
            selection: AppSelection(apps: app),
            jobs: jobs ?? ProcessInfoShim.activeProcessorCount,
            sink: .console
        )
        let progress = ProgressBar(total: walk.expectedFiles, label: "scan", streamsOutput: run.streamsOutput)
        let inventory = run.scan(walk.next, progress: { progress.advance() })
        progress.finish()
        // A reader that went away wanted no more: the run ends quietly (APMInspect.main).
        if Console.readerWentAway { return }
        if try run.finish(inventory) || walk.failed { throw ExitCode(1) }
    }
}
