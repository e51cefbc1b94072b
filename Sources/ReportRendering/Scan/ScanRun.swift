import APMInspectCore
import ReportInspection
import ReportSources

/// `scan`'s pipeline: every file of a walk read on worker threads (``ReportScanner``), envelopes or events streamed
/// as they are read, each result folded into the inventory in input order, then the inventory's view.
package struct ScanRun: Sendable {
    /// Results waiting for an earlier, slower one: a few hundred small records at most.
    package static let reorderWindow = 256

    package let scanner: ReportScanner
    /// The MetricKit fleet view, fed by the workers.
    package let metricKit: MetricKitFleetTally
    package var jobs: Int

    /// `backend`: the native events printed instead of envelopes (`--format sentry` …); `selection`: `--app`.
    package init(
        inspector: ReportInspector,
        temporary: TemporaryFolder,
        format: OutputFormat,
        backend: BackendEventPrinter?,
        selection: AppSelection?,
        jobs: Int,
        sink: OutputSink
    ) {
        var scanner = ReportScanner(
            inspector: inspector,
            temporary: temporary,
            format: format,
            sink: sink,
            backend: backend
        )
        let metricKit = MetricKitFleetTally()
        scanner.metricKit = metricKit
        scanner.selection = selection
        self.scanner = scanner
        self.metricKit = metricKit
        self.jobs = jobs
    }

    /// True when results are printed while the scan runs (a progress bar must then keep off a terminal's output).
    package var streamsOutput: Bool { scanner.format != .text || scanner.backend != nil }

    /// Reads the files `next` hands out until it returns nil, and folds them into the inventory.
    ///
    /// Each result is folded as soon as it and those before it are in, so no record outlives its turn; the window
    /// lets a slow input (a large archive) hold up the fold without stopping the workers. Files are taken from the
    /// walk as workers ask for them: no list of every path is ever held.
    package func scan(_ next: @escaping () -> RawPath?, progress: (@Sendable () -> Void)? = nil) -> ScanInventory {
        let sink = scanner.sink
        if scanner.format == .json { sink.out("{\n\"files\": [\n") }
        let fold = ScanInventoryFold()
        let scanned = ParallelMap.forEachInOrder(
            inputs: next,
            jobs: jobs,
            window: Self.reorderWindow,
            progress: progress,
            transform: { file in
                // Once standard output is lost (a reader gone, a full disk), reading on is wasted work.
                guard !sink.stopped else { return ReportScanner.Result(records: []) }
                if file.display == PathWalker.standardInputPath {
                    return scanner.scan(file: PathWalker.standardInputPath, shownAs: PathWalker.standardInputArgument)
                }
                return scanner.scan(file: file)
            },
            consume: { result in
                fold.add(records: result.records, findings: result.findings)
                return true
            }
        )
        var inventory = fold.inventory(files: scanned)
        if scanner.selection != nil { inventory.leftOutByApp = scanner.leftOut.current }
        return inventory
    }

    /// Ends the output; true when something failed (exit status 1).
    ///
    /// Writes the JSON document's inventory, the text view, or the summary line of the streamed formats, then the
    /// unreadable files on standard error.
    package func finish(_ inventory: ScanInventory) throws -> Bool {
        let sink = scanner.sink
        let fleet = metricKit.summary()
        var backendFailed = false
        switch scanner.format {
        case _ where scanner.backend != nil:
            backendFailed = scanner.backend?.finish(summary: ScanRenderer.summaryLine(inventory), sink: sink) ?? false
        case .json:
            var tail = "\n],\n\"inventory\": " + (try JSONOutput.encode(inventory, pretty: true))
            if !fleet.isEmpty { tail += ",\n\"metricKit\": " + (try JSONOutput.encode(fleet, pretty: true)) }
            sink.out(tail + "\n}\n")
        case .ndjson:
            sink.error("apm-inspect: note: " + ScanRenderer.summaryLine(inventory))
        default:
            sink.fittedText(ScanRenderer.render(inventory, metricKit: fleet))
        }
        for item in inventory.unreadable { sink.error(item.reason) }
        return !inventory.unreadable.isEmpty || scanner.output.hadFailures || backendFailed
    }
}
