import APMInspectCore
import ArgumentParser
import ReportRendering
import ReportSources

/// `apm-inspect energy PATH...`: per-app energy, battery history, background location and exits from PowerLog.
struct EnergyCommand: ParsableCommand, PrintsTables {
    static let configuration = CommandConfiguration(
        commandName: "energy",
        abstract: "Per-app energy, battery history and process exits from PowerLog databases.",
        discussion: """
            Reads *.PLSQL, *.PLSQL.gz, *.EPSQL and *.BGSQL files (by content; folders are searched by name, \
            e.g. a sysdiagnose's logs/powerlogs). Several files of one device are merged into one history, rows \
            repeated across files counted once. Times are wall clock: PowerLog's clock plus the offset in effect \
            at each row. Energy is in PowerLog's own (undocumented) units. --plot writes an SVG of the battery \
            level with energy by hour beneath it.
            """ + HelpExample.section(examples)
    )

    /// Run by `HelpExamplesTests` from the repository root, so each one keeps working as shown.
    static let examples: [HelpExample] = [
        HelpExample("One PowerLog database", "energy Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL"),
        HelpExample("Rotated PowerLog files of one device, merged into one history", "energy Corpus/powerlog/rotated"),
    ]

    @Argument(help: "PowerLog files, or folders to search for them (- for standard input).", completion: .file())
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output format.")
    var format: DocumentFormat = .text

    @Option(help: "Rows shown per table in text output.")
    var top: Int = 15

    @Option(help: "Write an SVG plot of battery level and energy by hour to this file.", completion: .file())
    var plot: String?

    @OptionGroup var tableOptions: TableOptions

    func validate() throws {
        if top < 1 { throw ValidationError("--top must be at least 1") }
        try PathWalker.validate(paths)
    }

    func run() throws {
        let run = EnergyRun(paths: paths, format: format.format, top: top, plot: plot, sink: .console)
        let files = run.files()
        // The databases are evidence: a plot path that is one of them, a link or a folder is refused before any work.
        let inputs = OutputFile.identities(of: paths).union(OutputFile.identities(of: files.found))
        if let plot { try OutputFile.refuseUnusable(plot, option: "--plot", inputs: inputs) }
        if try run.run(files, protecting: inputs) { throw ExitCode(1) }
    }
}
