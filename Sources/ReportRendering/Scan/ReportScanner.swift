import APMInspectCore
import FleetReport
import Foundation
import ReportInspection
import ReportSources

/// Reads one path of a scan: a report, or an archive of them; prints envelopes as they come when streaming.
package struct ReportScanner: Sendable {
    package struct Result: Sendable {
        package var records: [ScanRecord]
        /// The archive's own findings, with their codes.
        package var diagnostics: [FleetFinding]

        /// The findings as the inventory lists them.
        package var findings: [String] { diagnostics.map(\.line) }

        package init(records: [ScanRecord], diagnostics: [FleetFinding] = []) {
            self.records = records
            self.diagnostics = diagnostics
        }
    }

    package let inspector: ReportInspector
    package let temporary: TemporaryFolder
    package let format: OutputFormat
    package let output = OutputGate()
    /// Set for the backend formats: each inspection becomes native events instead of an envelope.
    package let backend: BackendEventPrinter?
    /// Records keep the facts of the fleet report (`report` scans with this set).
    package var keepsFleetFacts = false
    /// `report --grouping`: the rules that name the crash groups of the fleet facts.
    package var grouping: GroupingRules?
    /// Folds the figures of every MetricKit file met (the scan's fleet view); nil when not wanted.
    package var metricKit: MetricKitFleetTally?
    /// `--app`: reports of other apps are neither printed nor recorded, only counted in ``leftOut``.
    package var selection: AppSelection?
    package let leftOut = AtomicCounter()

    /// Where envelopes go as they are read (the executable's console).
    package let sink: OutputSink

    package init(
        inspector: ReportInspector,
        temporary: TemporaryFolder,
        format: OutputFormat,
        sink: OutputSink,
        backend: BackendEventPrinter? = nil
    ) {
        self.sink = sink
        self.backend = backend
        self.inspector = inspector
        self.temporary = temporary
        self.format = format
    }

    private func record(_ inspection: Inspection) -> ScanRecord {
        if let metricKit, case .metricKit(let report) = inspection.report {
            metricKit.add(FleetEvent.metricKitFigures(report))
        }
        return ScanRecord(inspection, keepingFleetFacts: keepsFleetFacts, grouping: grouping)
    }

    /// Reads a path kept as bytes; a name that is not UTF-8 is read through `/proc/self/fd` and shown escaped.
    package func scan(file raw: RawPath) -> Result {
        var records: [ScanRecord] = []
        let findings = InputReader(inspector: inspector, temporary: temporary).read(raw) { keep($0, in: &records) }
        emitArchive(raw.display, findings)
        return Result(records: records, diagnostics: findings.map { FleetFinding(file: raw.display, diagnostic: $0) })
    }

    /// Reads the file at `path`, or each report inside it when it is an archive; `shown` names it in the output.
    package func scan(file path: String, shownAs shown: String? = nil) -> Result {
        var records: [ScanRecord] = []
        let reader = InputReader(inspector: inspector, temporary: temporary)
        let findings = reader.read(path: path, shownAs: shown) { keep($0, in: &records) }
        emitArchive(shown ?? path, findings)
        return Result(records: records, diagnostics: findings.map { FleetFinding(file: shown ?? path, diagnostic: $0) })
    }

    /// An archive's findings as an envelope of their own, after its reports', in the JSON formats (the backend
    /// formats make events of reports only).
    private func emitArchive(_ archive: String, _ findings: [Diagnostic]) {
        guard !findings.isEmpty, backend == nil else { return }
        emit(.archive(archive, findings: findings))
    }

    /// Prints and records an inspection `--app` keeps.
    private func keep(_ inspection: Inspection, in records: inout [ScanRecord]) {
        guard keeps(inspection) else { return }
        emit(inspection)
        records.append(record(inspection))
    }

    /// True when `--app` keeps the inspection (always without `--app`); one left out is counted.
    private func keeps(_ inspection: Inspection) -> Bool {
        guard let selection, !selection.keeps(inspection) else { return true }
        _ = leftOut.increment()
        return false
    }

    private func emit(_ inspection: Inspection) {
        if let backend {
            backend.write(backend.render(inspection))
            return
        }
        guard format == .json || format == .ndjson else { return }
        if JSONOutput.emitEnvelope(
            inspection,
            arrayElement: format == .json,
            exclusive: output.exclusive,
            to: sink
        ) {
            output.recordFailure()
        }
    }
}
