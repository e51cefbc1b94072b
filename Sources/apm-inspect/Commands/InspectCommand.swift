import APMInspectCore
import ArgumentParser
import ReportInspection
import ReportRendering
import ReportSources

/// `apm-inspect inspect FILE...`: what each file is and what it says.
struct InspectCommand: ParsableCommand, PrintsTables {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Tell what each file is and what it says.",
        discussion: """
            Prints a summary for people, or with --format json the envelope {file, kind, diagnostics, report}: \
            one JSON object when the only path given is a file (or -), an array of them when a folder, an archive \
            or several paths are given, whatever the folder holds; --array prints an array in every case. \
            --format ndjson \
            prints one envelope per line for pipelines. Folders are read recursively; - reads standard input; a \
            tar or tar.gz (a sysdiagnose) is read report by report, as scan reads it. \
            Results are printed as each file is read, in the order of the inputs. --format sentry, \
            sentry-envelope and otel print native events for Sentry and OpenTelemetry (docs/backends.md).

            The text view of a crash report (text, .ips, KSCrash, and the crash report inside a watchdog report or \
            a MetricKit crash diagnostic) shows the crashed thread's first 12 frames; --threads all, --frames, \
            --images and --registers show more, as Console.app does. Other kinds of file have no threads and \
            ignore them, as the other formats do (JSON always holds every thread, frame, image and register). \
            --color colours the crashed thread's heading and error and warning lines of the text view.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample(
            "A JSON crash report (.ips, bug_type 309)",
            "inspect Corpus/crash/ios17.2.1_309_*.ips"
        ),
        HelpExample(
            "Every thread and the binary images of a text crash report",
            "inspect --threads all --images Corpus/crash/ios14.4_*.crash"
        ),
        HelpExample(
            "A watchdog termination and what blocked the main thread",
            "inspect Corpus/watchdog/ios16.1_309_*.ips"
        ),
        HelpExample("Every file of a folder, one JSON envelope per line", "inspect --format ndjson Corpus/jetsam"),
        HelpExample(
            "A MetricKit call-stack tree as folded stacks for flame-graph tools",
            "inspect --format folded Corpus/metrickit/ios17.2_cpu_*.json"
        ),
        HelpExample(
            "A KSCrash report as a Sentry event",
            "inspect --format sentry Corpus/kscrash/v3.1.0_*.json"
        ),
        HelpExample(
            "A report symbolicated with the dSYMs of a folder",
            "inspect Tests/SymbolicationTests/Fixtures/reports/Demo-arm64-ios.crash --dsym "
                + "Tests/SymbolicationTests/Fixtures"
        ),
    ]

    @Argument(help: "Files or folders to inspect (- for standard input).", completion: .file())
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output format.")
    var format: InspectFormat = .text

    @Option(name: .shortAndLong, help: "With --format sentry-envelope, a folder to write one envelope file per event.")
    var output: String?

    @Option(name: .shortAndLong, help: "Worker threads (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "With --format json, print an array even for a single file (one shape for scripts).")
    var array = false

    @Option(
        help: ArgumentHelp(
            "Crash reports: the backtraces shown, the crashed thread's (crashed) or every thread's (all).",
            valueName: "crashed|all"
        )
    )
    var threads: CrashViewOptions.Threads = CrashViewOptions.standard.threads

    @Option(
        help: ArgumentHelp("Crash reports: frames shown per backtrace; 0 or all shows every frame.", valueName: "n")
    )
    var frames = CrashViewOptions.FrameLimit(count: CrashViewOptions.standard.frameLimit)

    @Flag(help: "Crash reports: list the binary images (start - end name arch <uuid> path).")
    var images = false

    @Flag(help: "Crash reports: show the crashed thread's registers.")
    var registers = false

    @Option(
        help: ArgumentHelp(
            "Colour the crashed thread and errors in the text view, and the error and warning words on standard "
                + "error: auto (each on a terminal when NO_COLOR is unset or empty), always or never.",
            valueName: "auto|always|never"
        )
    )
    var color: ColorChoice = .auto

    @Option(
        help: "Symbolicate crash reports with this dSYM, Mach-O file, folder or zip (repeatable: one path each)."
    )
    var dsym: [String] = []

    @OptionGroup var symbolOptions: SymbolOptions

    @Option(
        help: """
            Only this app's reports (repeatable): a bundle id or process name; a JetsamEvent stays when the app was \
            killed or frontmost. The files left out are counted on standard error.
            """
    )
    var app: [String] = []

    @OptionGroup var tableOptions: TableOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if array && format != .json { throw ValidationError("--array applies to --format json only") }
        try PathWalker.validate(paths)
        try BackendEventPrinter.validate(format: format, output: output)
    }

    /// True when `--format json` prints one object rather than an array.
    ///
    /// Decided by the command line, never by what a folder holds: one path that is neither a folder nor an archive
    /// gives an object, as it always has; a folder, an archive or several paths give an array, even of one envelope
    /// or none.
    static func printsOneObject(paths: [String], array: Bool) -> Bool {
        guard !array, paths.count == 1, let only = paths.first else { return false }
        return !PathWalker.isFolder(only) && !ArchiveScanner.isArchive(atPath: only)
    }

    func run() throws {
        ErrorColor.shared.set(color)
        if let backend = format.backend { return try runBackend(backend) }
        if format == .folded { return try runFolded() }
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let inputs = PathWalker.inputs(in: paths)
        var textInspector = ReportInspector()
        textInspector.httpSummaryOnly = format == .text
        textInspector.symbolicator =
            ReportSymbolication.make(dsymPaths: dsym, symbols: symbolOptions.sources, sink: .console)?
            .symbolicator
        let run = InspectRun(
            reader: InputReader(inspector: textInspector, temporary: temporary),
            format: format.format,
            oneObject: Self.printsOneObject(paths: paths, array: array) && inputs.count == 1,
            crashView: crashView,
            color: color.isEnabled(outputIsTerminal: Console.stdoutIsTerminal, noColor: ColorChoice.noColorVariable),
            selection: AppSelection(apps: app),
            jobs: jobs ?? ProcessInfoShim.activeProcessorCount,
            sink: .console
        )
        let progress = ProgressBar(total: inputs.count, label: "inspect", streamsOutput: true)
        let outcome = run.run(inputs, progress: { progress.advance() })
        progress.finish()
        Self.noteLeftOut(outcome.leftOut)
        if outcome.failures > 0 { throw ExitCode(1) }
    }

    /// Says on standard error how many files `--app` left out, when it left any out.
    static func noteLeftOut(_ count: Int) {
        if let note = InspectRun.leftOutNote(count) { Console.error(note) }
    }

    /// What `--threads`, `--frames`, `--images` and `--registers` ask of a crash report's text view.
    var crashView: CrashViewOptions {
        CrashViewOptions(threads: threads, frameLimit: frames.count, images: images, registers: registers)
    }

    /// Prints an archive's findings, and says so when it held no report.
    static func printFindings(_ read: InputRead) {
        InspectRun.printFindings(read, to: .console)
    }
}
