import APMInspectCore
import CrashReportParsing
import MetricKitParsing

/// What the fleet report counts of an App Store Connect response: a logs response is one occurrence, a hang when
/// its logs are hangs, a resource warning when they are disk writes (MetricKit's disk-write exception, Apple's
/// 145: the OS reports the writes, it does not kill the app for them).
///
/// A signatures response counts nothing: its weights are shares of a build's occurrences, not occurrences.
/// Kept apart from the other families' facts so that the report's own sections can change without touching it.
package enum AppStoreConnectFacts {
    /// The occurrence of the response's logs, by the kind most of them are (hang first on a tie); nil for a
    /// signatures response or logs of other kinds.
    package static func occurrence(_ report: AppStoreConnectReport) -> FleetEvent.Occurrence? {
        let hangs = report.kindCounts[MetricKitDiagnostic.Kind.hang.rawValue] ?? 0
        let writes = report.kindCounts[MetricKitDiagnostic.Kind.diskWriteException.rawValue] ?? 0
        guard report.response == .diagnosticLogs, hangs + writes > 0 else { return nil }
        let kind: MetricKitDiagnostic.Kind = hangs >= writes ? .hang : .diskWriteException
        let metadata = report.logs.first { $0.diagnostic.kind == kind }?.diagnostic.metadata
        let context = FleetEvent.Context(
            bundleId: metadata?.bundleIdentifier,
            process: nil,
            appVersion: metadata?.appVersion,
            appBuild: metadata?.appBuildVersion,
            osVersion: metadata?.osVersionNumber ?? metadata?.osVersion,
            device: metadata?.deviceType,
            date: nil
        )
        return FleetEvent.Occurrence(category: kind == .hang ? .hang : .resourceWarning, context: context)
    }
}
