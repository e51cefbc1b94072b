import APMInspectCore
import ArgumentParser
import Foundation
import PowerLogReading
import ReportRendering
import ReportSources

/// `apm-inspect energy PATH...`: per-app energy, battery history, background location and exits from PowerLog.
struct EnergyCommand: ParsableCommand {
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

    func validate() throws {
        if top < 1 { throw ValidationError("--top must be at least 1") }
        try PathWalker.validate(paths)
    }

    func run() throws {
        var found: [RawPath] = []
        var walkFailed = false
        for path in PathWalker.rawArguments(paths.map(PathWalker.openable)) {
            var info = stat()
            guard path.withCString({ stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                if let problem = InputCheck.problem(at: path) {
                    walkFailed = true
                    let shown = PathWalker.shown(path.display)
                    Console.error(ErrorLine.render(path: shown, location: nil, message: problem))
                } else {
                    found.append(path)
                }
                continue
            }
            let discovery = PowerLogReader.discover(in: path)
            for finding in discovery.findings {
                walkFailed = walkFailed || finding.isError
                Console.error(
                    ErrorLine.render(
                        path: finding.path.display,
                        location: nil,
                        message: finding.message,
                        severity: finding.isError ? "error" : "note"
                    )
                )
            }
            if discovery.files.isEmpty {
                // A folder of nothing at all is said in the words every command uses.
                let isEmpty = DirectoryWalker().files(in: [path]).files.isEmpty
                walkFailed = true
                Console.error(
                    ErrorLine.render(
                        path: path.display,
                        location: nil,
                        message: isEmpty
                            ? PathWalker.emptyFolderMessage : "no PowerLog database (*.PLSQL, *.PLSQL.gz …) found"
                    )
                )
            }
            found += discovery.files
        }
        let opened = OpenedFiles(found)
        for failure in opened.failures {
            walkFailed = true
            Console.error(ErrorLine.render(path: failure.path, location: nil, message: failure.message))
        }
        let files = opened.paths
        // The databases are evidence: a plot path that is one of them, a link or a folder is refused before any work.
        let inputs = OutputFile.identities(of: paths).union(OutputFile.identities(of: found))
        if let plot { try OutputFile.refuseUnusable(plot, option: "--plot", inputs: inputs) }
        let readsStandardInput = paths.contains(PathWalker.standardInputArgument)
        // What the reader says names its files: stand-ins and standard input as the user gave them.
        let shown = { (text: String) -> String in
            let text = opened.shown(text)
            guard readsStandardInput else { return text }
            return text.replacingOccurrences(of: PathWalker.standardInputPath, with: PathWalker.standardInputArgument)
        }
        guard !files.isEmpty else { throw ExitCode(1) }
        var result: PowerLogReadResult
        do throws(PowerLogReader.PathFailure) {
            // Text of one database folds its rows into bounded aggregates; JSON and merged histories keep every row.
            // Only a regular file: a FIFO is read once, into memory, by the full reader.
            let single =
                files.count == 1
                ? files.first.flatMap { path -> String? in
                    var info = stat()
                    let regular = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
                    return regular && !PowerLogReader.isArchive(path) ? path : nil
                } : nil
            let limits = PowerLogSummaryLimits(keptRecent: min(max(1000, top), 1_000_000))
            if format == .text, let single {
                do {
                    result = try PowerLogReader().readSummary(path: single, limits: limits)
                } catch {
                    throw PowerLogReader.PathFailure(error)
                }
            } else {
                result = try PowerLogReader().readNamingFailure(paths: files)
            }
        } catch let failure {
            // The error is about one of the files when the reader names it, else about all of them: the path is
            // shown once, apart from the message.
            let path = shown(failure.path ?? files.joined(separator: ", "))
            Console.error(
                ErrorLine.render(path: path, location: failure.error.location, message: shown(failure.error.message))
            )
            throw ExitCode(1)
        }
        for index in result.report.sources.indices {
            result.report.sources[index].path = shown(result.report.sources[index].path)
        }
        for index in result.diagnostics.indices {
            result.diagnostics[index].message = shown(result.diagnostics[index].message)
        }
        let failed = walkFailed || result.diagnostics.contains { $0.severity == .error }
        if let plot {
            let svg = PowerLogPlot(report: result.report).svg()
            if let failure = OutputFile.write(svg, toPath: plot, protecting: inputs) {
                Console.error(ErrorLine.render(path: plot, location: nil, message: "cannot write the plot: \(failure)"))
                throw ExitCode(1)
            }
        }
        switch format.format {
        case .json:
            let envelope = EnergyDocument(
                files: files.map { shown($0) },
                kind: .powerLog,
                diagnostics: result.diagnostics,
                report: result.report
            )
            try JSONOutput.print(envelope, pretty: true, to: .console)
        default:
            Console.text(PowerLogRenderer.energy(result.report, diagnostics: result.diagnostics, top: top))
            if let plot { Console.out("\nPlot written to \(TerminalText.escaped(plot))\n") }
        }
        if failed { throw ExitCode(1) }
    }
}

/// The JSON document of `energy --format json`: the inspect envelope, with every file read.
private struct EnergyDocument: Encodable {
    var files: [String]
    var kind: FileKind
    var diagnostics: [Diagnostic]
    var report: PowerLogReport
}
