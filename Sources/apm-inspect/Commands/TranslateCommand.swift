import APMInspectCore
import ArgumentParser
import ReportRendering
import ReportSources

/// `apm-inspect translate FILE.ips`: the classic Apple text report, as Apple's own translation writes it.
struct TranslateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "translate",
        abstract: "Translate a JSON (bug_type 309) crash report into Apple's classic text report.",
        discussion: """
            Writes what Apple's OSAnalytics translation (Console, Xcode) writes: the iOS layout (Report Version \
            104) for iOS, iPadOS, tvOS and watchOS reports, the macOS layout (Report Version 12) for macOS ones. \
            The text goes to standard output unless -o names a file; several reports go to standard output each \
            after a line `==> PATH <==` (as `head` separates files), or with -o into that folder (made when \
            missing), each as NAME.crash. A MetricKit diagnostic payload gives one report per crash diagnostic, \
            each after a line `==> PATH KEYPATH <==` when there are several (NAME-N.crash in a folder). \
            docs/crash-translation.md lists the known differences from Apple's output.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample(
            "A JSON crash report as Apple's text",
            "translate Corpus/crash/ios17.2.1_309_*.ips"
        ),
        HelpExample(
            "The crash diagnostics of a MetricKit payload",
            "translate Corpus/metrickit/ios17.5_crash_*.json"
        ),
    ]

    @Argument(
        help: "bug_type 309 .ips crash reports, KSCrash reports or MetricKit payloads (- for standard input).",
        completion: .file()
    )
    var paths: [String]

    @Option(
        name: .shortAndLong,
        help: "Write the text to this file (one report) or into this folder (several) instead of standard output.",
        completion: .file()
    )
    var output: String?

    @Option(help: "Force a layout: ios or macos (default: from the report's platform).")
    var layout: String?

    @Option(help: "Symbolicate the reports with this dSYM, Mach-O file, folder or zip (repeatable: one path each).")
    var dsym: [String] = []

    @OptionGroup var symbolOptions: SymbolOptions

    func validate() throws {
        try PathWalker.validate(paths)
        if let layout, TranslationRun.layout(named: layout) == nil {
            throw ValidationError("--layout must be ios or macos")
        }
    }

    func run() throws {
        // The reports (and dSYMs) are evidence: an output that is one of them, however spelled, is never written.
        let symbols = symbolOptions.sources
        let inputs = OutputFile.identities(of: paths + dsym + symbols.local)
        if paths.count <= 1, let output { try OutputFile.refuseUnusable(output, option: "-o", inputs: inputs) }
        let run = TranslationRun(
            layout: layout.flatMap(TranslationRun.layout(named:)),
            dsym: dsym,
            symbols: symbols,
            stdoutIsTerminal: Console.stdoutIsTerminal,
            sink: .console
        )
        if run.run(paths, output: output, protecting: inputs) { throw ExitCode(1) }
    }
}
