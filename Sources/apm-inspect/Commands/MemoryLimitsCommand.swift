import APMInspectCore
import ArgumentParser
import JetsamParsing
import ReportRendering
import ReportSources

/// `apm-inspect memory-limits PATH...`: per-device app memory limits from many JetsamEvent reports.
struct MemoryLimitsCommand: ParsableCommand, PrintsTables {
    static let configuration = CommandConfiguration(
        commandName: "memory-limits",
        abstract: "Compute per-device app memory limits from JetsamEvent reports.",
        discussion: """
            Reads every file under the given paths (folders recursively), keeps the JetsamEvents, and prints one \
            row per device model and OS build: the limit at which apps on screen were killed (per-process-limit, \
            rpages × pageSize, floor to MB) as min / median / max and as a share of RAM, with background-app and \
            extension limits in their own columns. Daemon kills never count as app limits. Copies of one incident \
            count once. Beta builds, modified kernels and non-iOS reports are set aside unless --include-all.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample("Per-device limits from a folder of JetsamEvents", "memory-limits Corpus/jetsam"),
        HelpExample(
            "The same as JSON, with the evidence behind each figure",
            "memory-limits --format json Corpus/jetsam"
        ),
    ]

    @Argument(
        help: "Files, folders or sysdiagnose archives of JetsamEvent reports (- for standard input).",
        completion: .file()
    )
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output format.")
    var format: OutputFormat = .text

    @Option(name: .shortAndLong, help: "Worker threads (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Also count beta builds, modified kernels and non-iOS reports.")
    var includeAll = false

    @Option(
        help: """
            With --format json: 1 prints the array of rows; 2 prints one object with the rows (limits), what was \
            read (inputs) and the inputs' findings with their codes (diagnostics).
            """
    )
    var schemaVersion = 1

    @OptionGroup var tableOptions: TableOptions

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        guard schemaVersion == 1 || schemaVersion == 2 else { throw ValidationError("--schema-version is 1 or 2") }
        if schemaVersion != 1 && format != .json {
            throw ValidationError("--schema-version applies to --format json only")
        }
        try PathWalker.validate(paths)
    }

    func run() throws {
        let walk = WalkedFiles(paths)
        let run = MemoryLimitsRun(
            options: MemoryLimitTable.Options(
                includeBeta: includeAll,
                includeModifiedKernels: includeAll,
                includeOtherPlatforms: includeAll
            ),
            jobs: jobs ?? ProcessInfoShim.activeProcessorCount,
            sink: .console
        )
        let progress = ProgressBar(total: walk.expectedFiles, label: "memory-limits")
        let (rows, summary, failures, diagnostics) = run.collect(walk.next) { progress.advance() }
        progress.finish()
        try run.print(
            rows,
            summary: summary,
            failures: failures,
            diagnostics: diagnostics,
            as: format,
            schemaVersion: schemaVersion
        )
        if walk.failed || summary.failures > 0 { throw ExitCode(1) }
    }
}
