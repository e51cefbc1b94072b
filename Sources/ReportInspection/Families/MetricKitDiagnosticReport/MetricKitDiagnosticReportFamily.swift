import APMInspectCore
import MetricKitParsing

/// The MetricKit of iOS/macOS 27 saved with `JSONEncoder`: a `DiagnosticReport`, an array of them, or a bare
/// `CallStackTree`.
///
/// It reads into the same `MetricKitReport` as ``MetricKitFamily`` (kind `metrickit`), so the MetricKit views,
/// fleet figures, folded stacks and backends read both shapes. It is asked before ``MetricKitFamily``, whose
/// recognition also matches this shape's `callStackPerThread`; the payload keys of `jsonRepresentation()` hand a
/// file on to it.
public struct MetricKitDiagnosticReportFamily: StandardFamily {
    /// How the family is named in diagnostics and in `--verbose` output.
    public var name: String { "MetricKit diagnostic report (iOS/macOS 27)" }

    /// The kinds of its envelopes, with their titles.
    package var kinds: KeyValuePairs<FileKind, String> { [.metrickit: "MetricKit"] }

    /// The family; it has no options (the inspector carries them).
    public init() {}

    /// A file recognised as a 27 diagnostic report but unreadable is a failure of kind `metrickit`.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard MetricKitDiagnosticReportReader.recognise(input.bytes, format: input.format) else { return nil }
        do {
            let result = try MetricKitDiagnosticReportReader().read(input.bytes)
            return Inspection(
                file: input.path,
                kind: .metrickit,
                diagnostics: result.diagnostics,
                report: .metricKit(result.report.analyzingHangs(with: MetricKitFamily.hangAnalysis)),
                failure: nil
            )
        } catch {
            return .failed(input.path, kind: .metrickit, error)
        }
    }
}
