import APMInspectCore
import FleetReport
import Foundation
import ReportInspection
import ReportSources
import Symbolication

/// `report`'s pipeline: what `scan` reads and the NDJSON of earlier scans, folded into one fleet summary.
///
/// Folded in input order; memory stays bounded: groups are kept, reports are not.
package struct FleetReportRun: Sendable {
    /// `--since` as given (parsed already: ``FleetFilter/parseSince(_:)``), `--app` and `--version`.
    package var since: String?
    package var apps: [String]
    package var version: String?
    package var jobs: Int
    /// When the report is made (``FleetSummary/generatedAt``); nil leaves the time out.
    package var generatedAt: Date?
    /// `--dsym` and `--symbols`: crash frames and signatures named as `scan` and `inspect` name them; nil leaves
    /// them as the reports have them.
    package var symbolicator: ReportSymbolicator?
    /// `--grouping`: the rules that name crash groups, and the rules file as given (echoed under `filters`).
    package var grouping: (rules: GroupingRules, file: String)?

    package init(since: String?, apps: [String], version: String?, jobs: Int, generatedAt: Date? = nil) {
        self.since = since
        self.apps = apps
        self.version = version
        self.jobs = jobs
        self.generatedAt = generatedAt
    }

    /// The time a report says it was made: `SOURCE_DATE_EPOCH` (whole seconds since 1970, for reproducible
    /// builds) when the environment sets it to such a number, else `now`.
    package static func generationTime(environment: [String: String], now: Date) -> Date {
        guard let text = environment["SOURCE_DATE_EPOCH"], let seconds = Int64(text), seconds >= 0,
            seconds < 253_402_300_800  // 10000-01-01: four-digit years only
        else { return now }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `2024-06-01T12:00:00Z`: the time in UTC to the second; nil for a time outside years 0 to 9999.
    package static func utcTimestamp(_ date: Date) -> String? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, seconds >= -62_167_219_200, seconds < 253_402_300_800,
            let whole = Int64(exactly: seconds)
        else { return nil }
        return CivilDate.isoDateTime(secondsSince1970: whole) + "Z"
    }

    /// The summary of `files`, with the filters it was made under, and the error lines of the files that could not
    /// be read (for standard error).
    package func summary(
        of files: [RawPath],
        temporary: TemporaryFolder,
        sink: OutputSink,
        progress: (@Sendable () -> Void)? = nil
    ) -> (summary: FleetSummary, errors: [String]) {
        var next = 0
        return summary(
            next: {
                guard next < files.count else { return nil }
                next += 1
                return files[next - 1]
            },
            temporary: temporary,
            sink: sink,
            progress: progress
        )
    }

    /// The summary of the files `next` hands out until it returns nil: taken from the walk as workers ask for them,
    /// so no list of every path is held (at 100,000 files the list was 14 MB of a run's growth).
    package func summary(
        next: @escaping () -> RawPath?,
        temporary: TemporaryFolder,
        sink: OutputSink,
        progress: (@Sendable () -> Void)? = nil
    ) -> (summary: FleetSummary, errors: [String]) {
        let filter = FleetFilter(since: since.flatMap(FleetFilter.parseSince), version: version, apps: apps)
        var inspector = ReportInspector(httpSummaryOnly: true)
        inspector.symbolicator = symbolicator
        var scanner = ReportScanner(
            inspector: inspector,
            temporary: temporary,
            format: .text,
            sink: sink
        )
        scanner.keepsFleetFacts = true
        scanner.grouping = grouping?.rules
        let collector = FleetCollector(filter: filter, jobs: jobs, grouping: grouping?.rules)
        let scanning = scanner
        ParallelMap.forEachInOrder(
            inputs: next,
            jobs: jobs,
            progress: progress,
            transform: { raw -> FleetCollector.Item in
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
        summary.filters.grouping = grouping?.file
        summary.generatedAt = generatedAt.flatMap(Self.utcTimestamp)
        return (summary, collector.errors)
    }

    /// The summary as `format` shows it.
    package static func render(_ summary: FleetSummary, as format: FleetReportFormat) throws -> String {
        switch format {
        case .json: try JSONOutput.encode(summary, pretty: true) + "\n"
        case .text: FleetReportTextRenderer.text(summary)
        case .markdown: FleetReportTextRenderer.markdown(summary)
        case .html: FleetReportHTMLRenderer.render(summary)
        case .folded: FoldedStacks(hangs: summary.hangs).text
        }
    }
}
