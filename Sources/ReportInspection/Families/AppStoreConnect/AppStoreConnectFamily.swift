import APMInspectCore
import MetricKitParsing

/// App Store Connect API diagnostics responses saved as JSON: a signature's `diagnosticLogs` and a build's
/// `diagnosticSignatures` (kind `appStoreConnect`).
///
/// It is asked before the MetricKit families: a logs response holds MetricKit's call-stack trees and
/// `diagnosticMetaData`, which their recognition also matches.
public struct AppStoreConnectFamily: ReportFamily {
    public var name: String { "App Store Connect diagnostics response" }

    /// The family; it has no options (the inspector carries them).
    public init() {}

    /// A file recognised as a response but unreadable is a failure of kind `appStoreConnect`.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard AppStoreConnectReader.recognise(input.bytes, format: input.format) else { return nil }
        do {
            let result = try AppStoreConnectReader().read(input.bytes)
            return Inspection(
                file: input.path,
                kind: .appStoreConnect,
                diagnostics: result.diagnostics,
                report: .appStoreConnect(result.report.analyzingHangs(with: MetricKitFamily.hangAnalysis)),
                failure: nil
            )
        } catch {
            return .failed(input.path, kind: .appStoreConnect, error)
        }
    }
}
