import APMInspectCore
import Foundation
import PowerLogReading
import ReportSources

/// `energy`'s pipeline: the PowerLog databases of the paths (folders searched by name), read into one history, and
/// its view: text or the JSON document, and the SVG plot.
package struct EnergyRun {
    /// The databases found, held open (a name that is not UTF-8 is read through its descriptor) until read.
    package struct Files {
        /// Every database found, for the identities an output must not replace.
        package var found: [RawPath]
        package var opened: OpenedFiles
        /// True when a path gave no database or could not be walked (exit status 1).
        package var failed: Bool
    }

    /// The paths as given (`-` for standard input).
    package var paths: [String]
    /// `text` or `json`.
    package var format: OutputFormat
    /// Rows shown per table of the text view.
    package var top: Int
    /// `--plot`: where the SVG goes.
    package var plot: String?
    /// Standard output and standard error (the executable's console).
    package let sink: OutputSink

    package init(paths: [String], format: OutputFormat, top: Int, plot: String?, sink: OutputSink) {
        self.paths = paths
        self.format = format
        self.top = top
        self.plot = plot
        self.sink = sink
    }

    /// The databases of ``paths``: files as given, folders searched; what went wrong said on standard error.
    package func files() -> Files {
        var found: [RawPath] = []
        var walkFailed = false
        for path in PathWalker.rawArguments(paths.map(PathWalker.openable)) {
            var info = stat()
            guard path.withCString({ stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                if let problem = InputCheck.problem(at: path) {
                    walkFailed = true
                    let shown = PathWalker.shown(path.display)
                    sink.error(ErrorLine.render(path: shown, location: nil, message: problem))
                } else {
                    found.append(path)
                }
                continue
            }
            let discovery = PowerLogReader.discover(in: path)
            for finding in discovery.findings {
                walkFailed = walkFailed || finding.isError
                sink.error(
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
                sink.error(
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
            sink.error(ErrorLine.render(path: failure.path, location: nil, message: failure.message))
        }
        return Files(found: found, opened: opened, failed: walkFailed)
    }

    /// Reads `files` into one history and prints it (and writes the plot, never over one of `inputs`); true when
    /// something failed (exit status 1).
    package func run(_ files: Files, protecting inputs: Set<FileIdentity>) throws -> Bool {
        let opened = files.opened
        let paths = opened.paths
        let readsStandardInput = self.paths.contains(PathWalker.standardInputArgument)
        // What the reader says names its files: stand-ins and standard input as the user gave them.
        let shown = { (text: String) -> String in
            let text = opened.shown(text)
            guard readsStandardInput else { return text }
            return text.replacingOccurrences(of: PathWalker.standardInputPath, with: PathWalker.standardInputArgument)
        }
        guard !paths.isEmpty else { return true }
        var result: PowerLogReadResult
        let spool: PowerLogBatterySpool?
        do throws(PowerLogReader.PathFailure) {
            (result, spool) = try read(paths)
        } catch let failure {
            // The error is about one of the files when the reader names it, else about all of them: the path is
            // shown once, apart from the message.
            let path = shown(failure.path ?? paths.joined(separator: ", "))
            sink.error(
                ErrorLine.render(path: path, location: failure.error.location, message: shown(failure.error.message))
            )
            return true
        }
        for index in result.report.sources.indices {
            result.report.sources[index].path = shown(result.report.sources[index].path)
        }
        for index in result.diagnostics.indices {
            result.diagnostics[index].message = shown(result.diagnostics[index].message)
        }
        let failed = files.failed || result.diagnostics.contains { $0.severity == .error }
        if let plot {
            let svg = PowerLogPlot(report: result.report).svg()
            if let failure = OutputFile.write(svg, toPath: plot, protecting: inputs) {
                sink.error(ErrorLine.render(path: plot, location: nil, message: "cannot write the plot: \(failure)"))
                return true
            }
        }
        switch format {
        case .json:
            let envelope = EnergyDocument(
                files: paths.map { shown($0) },
                kind: .powerLog,
                diagnostics: result.diagnostics,
                report: result.report
            )
            if let spool {
                try JSONOutput.print(EnergyDocument.Streamed(document: envelope, spool: spool), pretty: true, to: sink)
            } else {
                try JSONOutput.print(envelope, pretty: true, to: sink)
            }
        default:
            sink.fittedText(PowerLogRenderer.energy(result.report, diagnostics: result.diagnostics, top: top))
            if let plot { sink.out("\nPlot written to \(TerminalText.escaped(plot))\n") }
        }
        return failed
    }

    /// The history of `paths`: the text of one database folds its rows into bounded aggregates, the JSON of one
    /// database (without a plot, which draws every sample) has its battery rows in the returned spool, encoded as
    /// they were read; merged histories keep every row.
    private func read(_ paths: [String]) throws(PowerLogReader.PathFailure) -> (
        PowerLogReadResult, PowerLogBatterySpool?
    ) {
        // Only a regular file: a FIFO is read once, into memory, by the full reader.
        let single =
            paths.count == 1
            ? paths.first.flatMap { path -> String? in
                var info = stat()
                let regular = stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
                return regular && !PowerLogReader.isArchive(path) ? path : nil
            } : nil
        let limits = PowerLogSummaryLimits(keptRecent: min(max(1000, top), 1_000_000))
        if format == .json, plot == nil, let single,
            let spool = try? PowerLogBatterySpool(
                encoder: SortedJSONEncoder(pretty: true),
                depth: EnergyDocument.Streamed.batteryArrayDepth
            )
        {
            do {
                let result = try PowerLogReader().readStreamed(path: single, spool: spool)
                if spool.isUsable { return (result, spool) }
            } catch {
                throw PowerLogReader.PathFailure(error)
            }
            // The spool could not be written (a full disk): read again, every row in the model.
        }
        guard format == .text, let single else { return (try PowerLogReader().readNamingFailure(paths: paths), nil) }
        do {
            return (try PowerLogReader().readSummary(path: single, limits: limits), nil)
        } catch {
            throw PowerLogReader.PathFailure(error)
        }
    }
}
