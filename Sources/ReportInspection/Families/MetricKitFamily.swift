import APMInspectCore
import MetricKitParsing

/// MetricKit payloads (`MXDiagnosticPayload`, `MXMetricPayload`, one or an array) and bare call-stack trees.
public struct MetricKitFamily: ReportFamily {
    public var name: String { "MetricKit payload" }

    public init() {}

    /// A file recognised as MetricKit but unreadable is a failure of that kind.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard input.format == .json, MetricKitReader.recognise(input.bytes) else { return nil }
        do {
            let result = try MetricKitReader().read(input.bytes)
            return Inspection(
                file: input.path,
                kind: .metrickit,
                diagnostics: result.diagnostics,
                report: .metricKit(result.report),
                failure: nil
            )
        } catch {
            return .failed(input.path, kind: .metrickit, error)
        }
    }
}
