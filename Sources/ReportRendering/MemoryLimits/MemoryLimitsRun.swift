import APMInspectCore
import FleetReport
import JetsamParsing
import ReportInspection
import ReportSources

/// `memory-limits`' pipeline: the JetsamEvents of every file (and of every archive member) read on worker threads,
/// folded into the table in input order, then the table in the format asked for.
package struct MemoryLimitsRun: Sendable {
    package var options: MemoryLimitTable.Options
    package var jobs: Int
    /// Standard output and standard error (the executable's console).
    package let sink: OutputSink
    private let collector = MemoryLimitCollector()

    package init(options: MemoryLimitTable.Options, jobs: Int, sink: OutputSink) {
        self.options = options
        self.jobs = jobs
        self.sink = sink
    }

    /// What the files `next` hands out gave: the rows, the summary and the failures' lines.
    ///
    /// Folded in input order as they come, so the first copy of an incident is the one counted; files are taken
    /// from the walk as workers ask for them, so no list of every path is held.
    package func collect(
        _ next: @escaping () -> RawPath?,
        progress: (@Sendable () -> Void)? = nil
    ) -> (
        rows: [MemoryLimitRow], summary: MemoryLimitsRenderer.Summary, failures: [String], diagnostics: [FleetFinding]
    ) {
        let fold = MemoryLimitsFold(options: options)
        let read = ParallelMap.forEachInOrder(
            inputs: next,
            jobs: jobs,
            window: ScanRun.reorderWindow,
            progress: progress,
            transform: { file in (file, outcomes(of: file)) },
            consume: { file, read in
                let shown = PathWalker.shown(file.display)
                fold.add(read.outcomes, shown: shown)
                fold.add(findings: read.findings, shown: shown)
                return true
            }
        )
        let (rows, summary, failures) = fold.finish(files: read)
        return (rows, summary, failures, fold.findings)
    }

    /// Prints the failures on standard error, then the rows and the summary line as `format` shows them.
    ///
    /// `schemaVersion` 2 makes `--format json` one object (``MemoryLimitsDocument``) that carries the summary and
    /// `diagnostics` beside the rows; 1 keeps the array of rows documented first.
    package func print(
        _ rows: [MemoryLimitRow],
        summary: MemoryLimitsRenderer.Summary,
        failures: [String],
        diagnostics: [FleetFinding] = [],
        as format: OutputFormat,
        schemaVersion: Int = 1
    ) throws {
        for line in failures { sink.error(line) }
        switch format {
        case .text:
            sink.fittedText(MemoryLimitsRenderer.text(rows) + "\n" + MemoryLimitsRenderer.summaryLine(summary) + "\n")
        case .markdown:
            sink.text(MemoryLimitsRenderer.markdown(rows) + "\n" + MemoryLimitsRenderer.summaryLine(summary) + "\n")
        case .csv:
            sink.text(MemoryLimitsRenderer.csv(rows))
            sink.error("apm-inspect: note: " + MemoryLimitsRenderer.summaryLine(summary))
        case .json where schemaVersion >= 2:
            let document = MemoryLimitsDocument(limits: rows, summary: summary, diagnostics: diagnostics)
            try JSONOutput.print(document, pretty: true, to: sink)
            sink.error("apm-inspect: note: " + MemoryLimitsRenderer.summaryLine(summary))
        case .json:
            try JSONOutput.print(rows, pretty: true, to: sink)
            sink.error("apm-inspect: note: " + MemoryLimitsRenderer.summaryLine(summary))
        case .ndjson:
            for row in rows { try JSONOutput.print(row, pretty: false, to: sink) }
            sink.error("apm-inspect: note: " + MemoryLimitsRenderer.summaryLine(summary))
        }
    }

    /// The outcome of a file, or of every member when it is a tar or tar.gz archive (a sysdiagnose); the archive's
    /// warnings go to standard error.
    ///
    /// The file is opened by its bytes, so a name that is not UTF-8 is read too; messages show it escaped.
    package func outcomes(of path: RawPath) -> (
        outcomes: [(String?, MemoryLimitCollector.Outcome)], findings: [Diagnostic]
    ) {
        // Opened and read once: only an archive (its first 64 KiB say so) is read again, streamed by the tar reader.
        let read: FileReading.PrefixedRead
        do {
            read = try FileReading.contents(at: path, stoppingAfter: 65_536, when: ArchiveScanner.isArchive(prefix:))
        } catch {
            return ([(nil, .failed(error.location, error.message, code: error.code))], [])
        }
        // Standard input and FIFOs come whole (they can be read once only): an archive among them is read from
        // its bytes, so `cat sysdiagnose.tar.gz | apm-inspect memory-limits -` counts what the file does.
        var archiveBytes: [UInt8]?
        switch read {
        case .whole(let bytes) where bytes.isEmpty:
            return ([(nil, .failed(nil, "the file is empty", code: .empty))], [])
        case .whole(let bytes) where ArchiveScanner.isArchive(prefix: bytes):
            archiveBytes = bytes
        case .whole(let bytes) where ContentSniffer.format(of: bytes) == .gzip:
            // One gzip-compressed JetsamEvent (`x.ips.gz`): read as `inspect` reads it, within the same limits.
            do {
                return ([(nil, collector.evidence(in: try ReportInspector.expandGzip(bytes).bytes))], [])
            } catch {
                return (
                    [(nil, .failed(error.location, "the gzip was not read: \(error.message)", code: error.code))], []
                )
            }
        case .whole(let bytes):
            return ([(nil, collector.evidence(in: bytes))], [])
        case .stopped:
            break
        }
        let shown = PathWalker.shown(path.display)
        var results: [(String?, MemoryLimitCollector.Outcome)] = []
        var kept: [Diagnostic] = []
        do {
            func take(_ entry: TarEntry) {
                guard entry.kind == .file, !entry.data.isEmpty else { return }
                let outcome = collector.evidence(in: entry.data)
                if case .notJetsam = outcome { return }
                results.append(("\(shown)!/\(entry.path)", outcome))
            }
            // The archive limits of every command (TarReader.Options' defaults), as `scan` reads the same archive.
            let findings =
                try archiveBytes.map { try TarReader().read(bytes: $0, take) } ?? TarReader().read(fileAt: path, take)
            kept = findings.filter { $0.severity >= .warning }
            for finding in kept {
                sink.error(
                    ErrorLine.render(
                        path: shown,
                        location: finding.location,
                        message: finding.message,
                        severity: "warning"
                    )
                )
            }
        } catch {
            results.append((shown, .failed(nil, "cannot read the archive: \(error)", code: .unreadable)))
        }
        return (results, kept)
    }
}
