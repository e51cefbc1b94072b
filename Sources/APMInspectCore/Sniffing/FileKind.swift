/// What a file is, by its content: the `kind` of the JSON output envelope.
///
/// An open set of string values, as ``InputError/Code`` is: the kinds several modules name are declared here, and a
/// family added later declares its own in its folder (`extension FileKind { public static let … }`), so that adding
/// a family edits no list of cases. The raw value is the JSON spelling, part of the documented contract
/// (docs/json-output.md); the registry (`ReportInspector`) lists every kind its families carry, with the title the
/// text view gives each.
public struct FileKind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind as the JSON output spells it (`crashReport`); stable across releases.
    public let rawValue: String

    /// A kind from its JSON spelling.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The JSON spelling, as string interpolation shows it.
    public var description: String { rawValue }

    /// A JetsamEvent report (bug_type 298, 198, or a header-less body with its content).
    public static let jetsamEvent = FileKind(rawValue: "jetsamEvent")
    /// A crash report: legacy text, `.ips` 109 or 309.
    public static let crashReport = FileKind(rawValue: "crashReport")
    /// A crash report whose termination is a watchdog's (0x8badf00d and friends).
    public static let watchdogTermination = FileKind(rawValue: "watchdogTermination")
    /// A PowerLog database.
    public static let powerLog = FileKind(rawValue: "powerLog")
    /// A HAR file (plain, zlib or gzip).
    public static let httpArchive = FileKind(rawValue: "httpArchive")
    /// A Charles session (`.chlsj`, `.chlsx`).
    public static let charlesSession = FileKind(rawValue: "charlesSession")
    /// A pcap or pcapng capture.
    public static let packetCapture = FileKind(rawValue: "packetCapture")
    /// A stackshot report.
    public static let stackshot = FileKind(rawValue: "stackshot")
    /// A kernel panic or force reset report.
    public static let panic = FileKind(rawValue: "panic")
    /// Any other `.ips` with a bug_type: named and classified, its body described.
    public static let otherIPS = FileKind(rawValue: "otherIPS")
    /// A KSCrash JSON report (or SentryCrash's, Bugsnag's): read into the crash report model.
    public static let kscrash = FileKind(rawValue: "kscrash")
    /// MetricKit payloads (`MXDiagnosticPayload`, `MXMetricPayload`) or a bare `MXCallStackTree`.
    public static let metrickit = FileKind(rawValue: "metrickit")
    /// A system watchdog crash (bug_type 409): a userspace watchdog took the device or a service down; a system
    /// event, not an app's crash.
    public static let systemWatchdog = FileKind(rawValue: "systemWatchdog")
    /// A microstackshot resource report (bug_type 142 wakeups, 145 disk writes, 202 CPU usage, 206 CPU usage fatal): a
    /// resource warning, or a resource kill when the OS killed the process; never a crash.
    public static let resourceReport = FileKind(rawValue: "resourceReport")
    /// An App Store Connect API diagnostics response saved as JSON: the `diagnosticLogs` of a signature (call-stack
    /// trees and metadata) or a build's `diagnosticSignatures`.
    public static let appStoreConnect = FileKind(rawValue: "appStoreConnect")
    /// A tar or tar.gz archive (a sysdiagnose) read for the reports inside it.
    ///
    /// Its envelope carries the archive's own findings (a member skipped, a limit reached) and no report; each report
    /// inside has its own envelope. Only the commands' input layer writes it; the inspector reads one report.
    package static let archive = FileKind(rawValue: "archive")
    /// What no family read.
    public static let unknown = FileKind(rawValue: "unknown")
}
