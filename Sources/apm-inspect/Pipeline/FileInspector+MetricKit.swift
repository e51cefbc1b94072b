import APMInspectCore
import MetricKitParsing

extension FileInspector {
    /// Reads MetricKit JSON; a file that was recognised as MetricKit but cannot be read is a failure of that kind.
    func inspectMetricKit(bytes: [UInt8], path: String) -> Inspection {
        do {
            let result = try MetricKitReader().read(bytes)
            return Inspection(
                file: path,
                kind: .metrickit,
                diagnostics: result.diagnostics,
                report: .metricKit(result.report),
                failure: nil
            )
        } catch {
            return Inspection(
                file: path,
                kind: .metrickit,
                diagnostics: [],
                report: nil,
                failure: Inspection.Failure(code: error.code.rawValue, message: error.message, location: error.location)
            )
        }
    }
}
