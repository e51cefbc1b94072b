import APMInspectCore
import FleetReport
import ReportInspection
import ReportSources

/// `report`'s pipeline: what `scan` reads and the NDJSON of earlier scans, folded into one fleet summary.
///
/// Folded in input order; memory stays bounded: groups are kept, reports are not.
package struct FleetReportRun: Sendable {
    /// `--since` as given (parsed already: ``FleetFilter/parseSince(_:)``), `--app` and `--version`.
    package var since: String?
    package var apps: [String]
    package var version: String?
    package var jobs: Int

    package init(since: String?, apps: [String], version: String?, jobs: Int) {
        self.since = since
        self.apps = apps
        self.version = version
        self.jobs = jobs
    }

    /// The summary of `files`, with the filters it was made under, and the error lines of the files that could not
    /// be read (for standard error).
    package func summary(
        of files: [RawPath],
        temporary: TemporaryFolder,
        sink: OutputSink,
        progress: (@Sendable () -> Void)? = nil
    ) -> (summary: FleetSummary, errors: [String]) {
        let filter = FleetFilter(since: since.flatMap(FleetFilter.parseSince), version: version, apps: apps)
        var scanner = ReportScanner(
            inspector: ReportInspector(httpSummaryOnly: true),
            temporary: temporary,
            format: .text,
            sink: sink
        )
        scanner.keepsFleetFacts = true
        let collector = FleetCollector(filter: filter, jobs: jobs)
        let scanning = scanner
        ParallelMap.forEachInOrder(
            count: files.count,
            jobs: jobs,
            progress: progress,
            transform: { index -> FleetCollector.Item in
                let raw = files[index]
                if raw.display == PathWalker.standardInputPath {
                    let result = scanning.scan(
                        file: PathWalker.standardInputPath,
                        shownAs: PathWalker.standardInputArgument
                    )
                    return .scanned(result)
                }
                if FleetCollector.isNDJSON(raw) { return .ndjson(raw) }
                return .scanned(scanning.scan(file: raw))
            },
            consume: { item in
                collector.take(item)
                return true
            }
        )
        var summary = collector.summary()
        summary.filters = FleetSummary.Filters(
            since: since,
            app: apps.isEmpty ? nil : apps.joined(separator: ", "),
            version: version,
            apps: apps.isEmpty ? nil : apps
        )
        return (summary, collector.errors)
    }

    /// The summary as `format` shows it.
    package static func render(_ summary: FleetSummary, as format: FleetReportFormat) throws -> String {
        switch format {
        case .json: try JSONOutput.encode(summary, pretty: true) + "\n"
        case .text: FleetReportTextRenderer.text(summary)
        case .markdown: FleetReportTextRenderer.markdown(summary)
        case .html: FleetReportHTMLRenderer.render(summary)
        }
    }
}
