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
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                let found = PowerLogReader.discover(in: path)
                if found.isEmpty {
                    Console.error(
                        ErrorLine.render(
                            path: path,
                            location: nil,
                            message: "no PowerLog database (*.PLSQL, *.PLSQL.gz …) found"
                        )
                    )
                }
                files += found
            } else {
                files.append(path)
            }
        }
        guard !files.isEmpty else { throw ExitCode(1) }
        let result: PowerLogReadResult
        do {
            result = try PowerLogReader().read(paths: files)
        } catch {
            // The error is about one of the files; a message that starts with its path names it once, not twice.
            var path = files.joined(separator: ", ")
            var message = error.message
            if let named = files.first(where: { message.hasPrefix($0 + ": ") }) {
                path = named
                message.removeFirst(named.count + 2)
            }
            Console.error(ErrorLine.render(path: path, location: error.location, message: message))
            throw ExitCode(1)
        }
        let failed = result.diagnostics.contains { $0.severity == .error }
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
                files: files,
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
