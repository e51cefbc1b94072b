import APMInspectCore
import CrashReportParsing
import MetricKitParsing
import WatchdogAnalysis

/// MetricKit payloads (`MXDiagnosticPayload`, `MXMetricPayload`, one or an array) and bare call-stack trees.
public struct MetricKitFamily: StandardFamily {
    /// How the family is named in diagnostics and in `--verbose` output.
    public var name: String { "MetricKit payload" }

    /// The kinds of its envelopes, with their titles.
    package var kinds: KeyValuePairs<FileKind, String> { [.metrickit: "MetricKit"] }

    /// The family; it has no options (the inspector carries them).
    public init() {}

    /// A file recognised as MetricKit but unreadable is a failure of that kind.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard input.format == .json, MetricKitReader.recognise(input.bytes, format: input.format) else { return nil }
        do {
            let result = try MetricKitReader().read(input.bytes)
            return Inspection(
                file: input.path,
                kind: .metrickit,
                diagnostics: result.diagnostics,
                report: .metricKit(result.report.analyzingHangs(with: Self.hangAnalysis)),
                failure: nil
            )
        } catch {
            return .failed(input.path, kind: .metrickit, error)
        }
    }

    /// The watchdog analysis' classifier on a hang's blamed (main) thread: the join of two libraries that do not
    /// know each other, so that a hang says what the main thread was doing as a watchdog report does.
    package static func hangAnalysis(_ thread: CrashReport.Thread) -> MetricKitHangAnalysis {
        let diagnosis = MainThreadClassifier.classify(thread)
        return MetricKitHangAnalysis(
            verdict: diagnosis.verdict.rawValue,
            summary: diagnosis.summary,
            confidence: diagnosis.confidence.rawValue,
            reasons: diagnosis.reasons,
            evidenceFrames: diagnosis.evidenceFrames
        )
    }
}
