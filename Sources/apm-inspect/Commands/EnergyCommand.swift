import APMInspectCore
import ArgumentParser
import Foundation
import PowerLogReading

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
            """
    )

    @Argument(help: "PowerLog files, or folders to search for them.", completion: .file())
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(help: "Rows shown per table in text output.")
    var top: Int = 15

    @Option(help: "Write an SVG plot of battery level and energy by hour to this file.", completion: .file())
    var plot: String?

    func validate() throws {
        if format != .text && format != .json { throw ValidationError("energy prints text or json") }
        if top < 1 { throw ValidationError("--top must be at least 1") }
    }

    func run() throws {
        var found: [RawPath] = []
        var walkFailed = false
        for path in PathWalker.rawArguments(paths) {
            var info = stat()
            guard path.withCString({ stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                found.append(path)
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
                Console.error(
                    ErrorLine.render(
                        path: path.display,
                        location: nil,
                        message: "no PowerLog database (*.PLSQL, *.PLSQL.gz …) found"
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
        guard !files.isEmpty else { throw ExitCode(1) }
        var result: PowerLogReadResult
        do {
            // Text of one database folds its rows into bounded aggregates; JSON and merged histories keep every row.
            let single = files.count == 1 ? files.first.flatMap { PowerLogReader.isArchive($0) ? nil : $0 } : nil
            let limits = PowerLogSummaryLimits(keptRecent: min(max(1000, top), 1_000_000))
            if format == .text, let single {
                result = try PowerLogReader().readSummary(path: single, limits: limits)
            } else {
                result = try PowerLogReader().read(paths: files)
            }
        } catch {
            // The error is about one of the files; a message that starts with its path names it once, not twice.
            var path = opened.shown(files.joined(separator: ", "))
            var message = opened.shown(error.message)
            let files = files.map(opened.shown)
            if let named = files.first(where: { message.hasPrefix($0 + ": ") }) {
                path = named
                message.removeFirst(named.count + 2)
            }
            Console.error(ErrorLine.render(path: path, location: error.location, message: message))
            throw ExitCode(1)
        }
        for index in result.diagnostics.indices {
            result.diagnostics[index].message = opened.shown(result.diagnostics[index].message)
        }
        let failed = walkFailed || result.diagnostics.contains { $0.severity == .error }
        if let plot {
            let svg = PowerLogPlot(report: result.report).svg()
            if let failure = OutputFile.write(svg, toPath: plot) {
                Console.error(ErrorLine.render(path: plot, location: nil, message: "cannot write the plot: \(failure)"))
                throw ExitCode(1)
            }
        }
        switch format {
        case .json:
            let envelope = EnergyDocument(
                files: files.map(opened.shown),
                kind: .powerLog,
                diagnostics: result.diagnostics,
                report: result.report
            )
            try JSONOutput.print(envelope, pretty: true)
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
