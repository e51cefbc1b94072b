/// The kinds of report `apm-inspect` tells apart; the `kind` of the JSON output envelope.
public enum FileKind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case jetsamEvent
    case crashReport
    case watchdogTermination
    case powerLog
    case httpArchive
    case charlesSession
    case packetCapture
    case stackshot
    case panic
    case otherIPS
    /// A KSCrash JSON report (or SentryCrash's, Bugsnag's): read into the crash report model.
    case kscrash
    /// MetricKit payloads (`MXDiagnosticPayload`, `MXMetricPayload`) or a bare `MXCallStackTree`.
    case metrickit
    /// A system watchdog crash (bug_type 409): a userspace watchdog took the device or a service down; a system
    /// event, not an app's crash.
    case systemWatchdog
    /// A microstackshot resource report (bug_type 142 wakeups, 145 disk writes, 202 CPU usage, 206 CPU usage fatal): a
    /// resource warning, or a resource kill when the OS killed the process; never a crash.
    case resourceReport
    /// An App Store Connect API diagnostics response saved as JSON: the `diagnosticLogs` of a signature (call-stack
    /// trees and metadata) or a build's `diagnosticSignatures`.
    case appStoreConnect
    /// A metadata file of an Xcode Organizer `.xccrashpoint` bundle (`Info.plist`, `PointInfo.json` …): named as such,
    /// with its facts; the bundle's crash logs are crash reports.
    case xccrashpointInfo
    /// A tar or tar.gz archive (a sysdiagnose) read for the reports inside it: its envelope carries the archive's own
    /// findings (a member skipped, a limit reached) and no report; each report inside has its own envelope.
    case archive
    case unknown
}
