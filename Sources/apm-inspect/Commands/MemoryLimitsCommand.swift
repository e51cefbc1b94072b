import APMInspectCore
import ArgumentParser
import JetsamParsing
import ReportRendering
import ReportSources

/// `apm-inspect memory-limits PATH...`: per-device app memory limits from many JetsamEvent reports.
struct MemoryLimitsCommand: ParsableCommand {
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

    /// The outcome of a file, or of every member when it is a tar or tar.gz archive (a sysdiagnose).
    ///
    /// The file is opened by its bytes, so a name that is not UTF-8 is read too; messages show it escaped.
    static func outcomes(
        of path: RawPath,
        collector: MemoryLimitCollector
    ) -> [(String?, MemoryLimitCollector.Outcome)] {
        // Opened and read once: only an archive (its first 64 KiB say so) is read again, streamed by the tar reader.
        let read: FileReading.PrefixedRead
        do {
            read = try FileReading.contents(at: path, stoppingAfter: 65_536, when: ArchiveScanner.isArchive(prefix:))
        } catch {
            return [(nil, .failed(error.location, error.message))]
        }
        guard case .stopped = read else {
            guard case .whole(let bytes) = read, !bytes.isEmpty else {
                return [(nil, .failed(nil, "the file is empty"))]
            }
            return [(nil, collector.evidence(in: bytes))]
        }
        let shown = PathWalker.shown(path.display)
        var results: [(String?, MemoryLimitCollector.Outcome)] = []
        do {
            // The archive limits of every command (TarReader.Options' defaults), as `scan` reads the same archive.
            let findings = try TarReader().read(fileAt: path) { entry in
                guard entry.kind == .file, !entry.data.isEmpty else { return }
                let outcome = collector.evidence(in: entry.data)
                if case .notJetsam = outcome { return }
                results.append(("\(shown)!/\(entry.path)", outcome))
            }
            for finding in findings where finding.severity >= .warning {
                Console.error(
                    ErrorLine.render(
                        path: shown,
                        location: finding.location,
                        message: finding.message,
                        severity: "warning"
                    )
                )
            }
        } catch {
            results.append((shown, .failed(nil, "cannot read the archive: \(error)")))
        }
        return results
    }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        try PathWalker.validate(paths)
    }

    func run() throws {
        let walk = WalkedFiles(paths)
        let collector = MemoryLimitCollector()
        let progress = ProgressBar(total: walk.expectedFiles, label: "memory-limits")
        let options = MemoryLimitTable.Options(
            includeBeta: includeAll,
            includeModifiedKernels: includeAll,
            includeOtherPlatforms: includeAll
        )
        let fold = MemoryLimitsFold(options: options)
        // Folded in input order as they come, so the first copy of an incident is the one counted, as before; files
        // are taken from the walk as workers ask for them, so no list of every path is held.
        let read = ParallelMap.forEachInOrder(
            inputs: walk.next,
            jobs: jobs ?? ProcessInfoShim.activeProcessorCount,
            window: ScanCommand.reorderWindow,
            progress: { progress.advance() },
            transform: { file in (file, Self.outcomes(of: file, collector: collector)) },
            consume: { file, outcomes in
                fold.add(outcomes, shown: PathWalker.shown(file.display))
                return true
            }
        )
        progress.finish()
        let (rows, summary, failures) = fold.finish(files: read)
        for line in failures { Console.error(line) }
        let failed = walk.failed || summary.failures > 0
        switch format {
        case .text:
            Console.text(MemoryLimitsRenderer.text(rows) + "\n" + MemoryLimitsRenderer.summaryLine(summary) + "\n")
        case .markdown:
            Console.text(MemoryLimitsRenderer.markdown(rows) + "\n" + MemoryLimitsRenderer.summaryLine(summary) + "\n")
        case .csv:
            Console.text(MemoryLimitsRenderer.csv(rows))
            Console.error("apm-inspect: note: " + MemoryLimitsRenderer.summaryLine(summary))
        case .json:
            try JSONOutput.print(rows, pretty: true, to: .console)
            Console.error("apm-inspect: note: " + MemoryLimitsRenderer.summaryLine(summary))
        case .ndjson:
            for row in rows { try JSONOutput.print(row, pretty: false, to: .console) }
            Console.error("apm-inspect: note: " + MemoryLimitsRenderer.summaryLine(summary))
        }
        if failed { throw ExitCode(1) }
    }
}
