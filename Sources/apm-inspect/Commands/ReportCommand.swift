import APMInspectCore
import ArgumentParser
import FleetReport
import Foundation
import ReportInspection
import ReportRendering
import ReportSources

/// `apm-inspect report PATH...`: the fleet view of many reports (crash groups, terminations, OOM kills, MetricKit).
struct ReportCommand: ParsableCommand, PrintsTables {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Summarise a fleet of reports: crash groups, watchdog terminations, OOM kills, MetricKit exits.",
        discussion: """
            Reads what scan reads (files, folders, sysdiagnose and other tar archives) and NDJSON files written by \
            `scan --format ndjson` (recognised by their content), and prints one report: crash groups by signature \
            with their share, first and last seen, versions, OS versions and devices; the groups new in the newest \
            version; watchdog terminations by reason and main-thread verdict; OOM kills by device with the memory \
            limits they reveal; MetricKit exits and hang rates by version. Memory stays bounded: groups are kept, \
            reports are not. See docs/fleet-report.md.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample("Crash groups, watchdog terminations and OOM kills of a folder", "report Corpus"),
        HelpExample(
            "Crash groups named by fingerprint rules (Sentry's syntax)",
            "report --grouping docs/examples/grouping.rules Corpus/crash"
        ),
    ]

    @Argument(help: "Files, folders, archives or NDJSON of earlier scans (- for standard input).", completion: .file())
    var paths: [String]

    @Option(help: "Only reports written on or after this day (2024-06-01, UTC) or time (ISO 8601).")
    var since: String?

    @Option(
        help: """
            Only this app (repeatable): a bundle id or process name; a JetsamEvent stays when the app was killed or \
            frontmost.
            """
    )
    var app: [String] = []

    @Option(help: "Only this app version or build (reports without a version, such as JetsamEvents, are left out).")
    var version: String?

    @Option(name: .shortAndLong, help: "Output format.")
    var format: FleetReportFormat = .text

    @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(name: .shortAndLong, help: "Worker threads (default: the number of cores).")
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            """
            Name crash groups by the rules in this file, in Sentry's fingerprint-rule syntax \
            (function:"Cache.*" -> cache-crashes); the first rule that holds names a crash's group.
            """,
            valueName: "rules"
        ),
        completion: .file()
    )
    var grouping: String?

    @OptionGroup var tableOptions: TableOptions

    @Option(
        help: """
            Symbolicate crash reports with this dSYM, Mach-O file, folder or zip (repeatable: one path each), so \
            frames and signatures are named as scan and inspect name them.
            """
    )
    var dsym: [String] = []

    @OptionGroup var symbolOptions: SymbolOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let since, FleetFilter.parseSince(since) == nil {
            throw ValidationError("--since wants a day (2024-06-01) or an ISO 8601 time, not \(since)")
        }
        try PathWalker.validate(paths)
    }

    func run() throws {
        // The rules are read first: a rules file with an error stops the command before any report is read.
        let rules = try grouping.map { path in (rules: try Self.groupingRules(at: path), file: path) }
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        // The user's reports are evidence: `-o` naming one of them (directly, inside a folder, through a link or a
        // hard link) is refused before any is read, as is a link or a folder. The walk that checks it holds no list.
        var inputs = OutputFile.identities(of: paths)
        if let output, let target = FileIdentity(path: output), OutputFile.walk(paths, reaches: target) {
            inputs.insert(target)
        }
        if let output { try OutputFile.refuseUnusable(output, option: "-o", inputs: inputs) }
        // Files are taken from the walk as workers ask for them; its notes and failures print where it meets them.
        let walk = WalkedFiles(paths)
        var run = FleetReportRun(
            since: since,
            apps: app,
            version: version,
            jobs: jobs ?? ProcessInfoShim.activeProcessorCount,
            generatedAt: FleetReportRun.generationTime(environment: ProcessInfo.processInfo.environment, now: Date())
        )
        let symbolication = ReportSymbolication.make(dsymPaths: dsym, symbols: symbolOptions.sources, sink: .console)
        run.symbolicator = symbolication?.symbolicator
        run.grouping = rules
        let progress = ProgressBar(total: walk.expectedFiles, label: "report", streamsOutput: false)
        let (summary, errors) = run.summary(next: walk.next, temporary: temporary, sink: .console) {
            progress.advance()
        }
        progress.finish()
        let text = try FleetReportRun.render(summary, as: format)
        if let output {
            if let failure = OutputFile.write(text, toPath: output, protecting: inputs) {
                Console.error("error: cannot write \(TerminalText.escaped(output)): \(failure)")
                throw ExitCode(1)
            }
        } else if format == .text {
            OutputSink.console.fittedText(text)
        } else {
            Console.out(text)
        }
        for line in errors { Console.error(line) }
        if walk.failed || summary.inputs.unreadable > 0 || summary.inputs.rejectedLines > 0 {
            throw ExitCode(1)
        }
    }

    /// The rules of `--grouping`; a file that cannot be read or holds an error is reported as `PATH:LINE:COL: error:
    /// message` and ends the command with status 1, as an input that cannot be parsed does.
    static func groupingRules(at path: String) throws -> GroupingRules {
        let limits = GroupingRules.Limits()
        do {
            // One byte past the limit, so the parser says the file is too large rather than the reader.
            let bytes = try FileReading.contents(atPath: path, maxBytes: limits.maxBytes + 1)
            return try GroupingRules.parse(bytes, limits: limits)
        } catch let error as GroupingRulesError {
            Console.error(
                ErrorLine.render(path: path, location: error.diagnostic.location, message: error.diagnostic.message)
            )
        } catch let error as InputError {
            Console.error(ErrorLine.render(path: path, location: nil, message: error.message))
        } catch {
            Console.error(ErrorLine.render(path: path, location: nil, message: "\(error)"))
        }
        throw ExitCode(1)
    }
}
