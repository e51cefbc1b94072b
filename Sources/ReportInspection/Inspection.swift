import APMInspectCore
import CrashReportParsing
import HTTPCaptureParsing
import JetsamParsing
import MetricKitParsing
import PowerLogReading
import WatchdogAnalysis

/// What was learned about one file: the envelope of the JSON output contract (docs/json-output.md).
///
/// A backend that receives uploads gets the same value `apm-inspect inspect --format json` prints, so what it
/// stores and what a person sees on the command line cannot drift apart.
public struct Inspection: Sendable, Encodable {
    /// The version of the documented output contract.
    ///
    /// Keys are only ever added, so it changes only if a documented key changed meaning or went away, which the
    /// contract forbids: a reader can reject a version it does not know.
    public static let schemaVersion = 1

    /// The model of the report, by kind.
    ///
    /// Indirect: the models are kilobytes inline, and every family that declines a file returns an `Inspection?`
    /// of that size, zeroed; boxed, a declined family costs a few words (a scan of 1,000 reports spent 18.5 M of its
    /// 689 M instructions zeroing them).
    public indirect enum Report: Sendable, Encodable {
        case jetsam(JetsamEvent)
        case ips(IPSSummary)
        case unrecognised(UnrecognisedSummary)
        case crash(CrashReport)
        case watchdog(CrashReport, WatchdogTermination)
        case http(HTTPCapture)
        case powerLog(PowerLogReport)
        case metricKit(MetricKitReport)
        /// A system watchdog crash (bug_type 409).
        case systemWatchdog(SystemWatchdogReport)
        /// A microstackshot resource report (bug_type 142, 145, 202, 206).
        case resource(ResourceReport)
        /// An App Store Connect API diagnostics response (logs or signatures).
        case appStoreConnect(AppStoreConnectReport)
        /// The model of a family on the generic path (``FamilyReport``), in this package or registered from
        /// outside it: encoded as it encodes itself.
        case family(any FamilyReport)

        /// Writes the JSON form documented in docs/json-output.md.
        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .jetsam(let event): try event.encode(to: encoder)
            case .ips(let summary): try summary.encode(to: encoder)
            case .unrecognised(let summary): try summary.encode(to: encoder)
            case .crash(let report): try report.encode(to: encoder)
            case .watchdog(let report, let watchdog):
                // A watchdog report is the crash report plus a `watchdog` object.
                try report.encode(to: encoder)
                var container = encoder.container(keyedBy: WatchdogKey.self)
                try container.encode(watchdog, forKey: .watchdog)
            case .http(let capture): try capture.encode(to: encoder)
            case .powerLog(let report): try report.encode(to: encoder)
            case .metricKit(let report): try report.encode(to: encoder)
            case .systemWatchdog(let report): try report.encode(to: encoder)
            case .resource(let report): try report.encode(to: encoder)
            case .appStoreConnect(let report): try report.encode(to: encoder)
            case .family(let report): try report.encode(to: encoder)
            }
        }
    }

    private enum WatchdogKey: String, CodingKey {
        case watchdog
    }

    /// The path as the user gave it.
    public var file: String
    /// What the file is, by its content; `unknown` when no family read it.
    public var kind: FileKind
    /// What the readers noticed: recovered damage, unknown shapes, limits reached.
    public var diagnostics: [Diagnostic]
    /// The typed report, nil when reading failed (see ``failure``).
    public var report: Report?
    /// Set when the file could not be read or parsed (exit status 1).
    public var failure: Failure?
    /// The sysdiagnose the report came from, when it was found inside one.
    public var source: SysdiagnoseFacts?
    /// The Xcode Organizer crash point a crash log was found in, with its bundle's and filter's facts.
    public var crashpoint: XcodeCrashpointFacts?
    /// SHA-256 of the bytes read, when the inspector was asked for it (the backend formats' event ids); not encoded.
    public var contentDigest: [UInt8]?
    /// `ContentHash` of the bytes read, for JetsamEvent reports.
    ///
    /// Their identity when they have no incident id, in `memory-limits`, `scan` and `report` alike. Encoded as
    /// `contentHash` (16 hexadecimal digits).
    public var contentHash: UInt64?

    /// An inspection from its parts, as a family of your own returns it.
    public init(
        file: String,
        kind: FileKind,
        diagnostics: [Diagnostic],
        report: Report?,
        failure: Failure?,
        source: SysdiagnoseFacts? = nil,
        contentDigest: [UInt8]? = nil,
        contentHash: UInt64? = nil
    ) {
        self.file = file
        self.kind = kind
        self.diagnostics = diagnostics
        self.report = report
        self.failure = failure
        self.source = source
        self.contentDigest = contentDigest
        self.contentHash = contentHash
    }

    /// Why nothing could be read: the shared error's code, message and location.
    public struct Failure: Sendable, Encodable {
        /// The stable code to branch on (an `InputError` code's raw value).
        public var code: String
        /// One line for people; input bytes in it are escaped.
        public var message: String
        /// Where in the input reading stopped, when that is known.
        public var location: SourceLocation?

        package init(code: String, message: String, location: SourceLocation?) {
            self.code = code
            self.message = message
            self.location = location
        }
    }

    private enum CodingKeys: String, CodingKey {
        case contentHash
        case file
        case kind
        case diagnostics
        case report
        case error
        case source
        case crashpoint
        case schemaVersion
    }

    /// Writes the JSON form documented in docs/json-output.md.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(kind, forKey: .kind)
        try container.encode(diagnostics, forKey: .diagnostics)
        if let report {
            try container.encode(report, forKey: .report)
        } else {
            try container.encodeNil(forKey: .report)
        }
        try container.encodeIfPresent(failure, forKey: .error)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(crashpoint, forKey: .crashpoint)
        try container.encode(Self.schemaVersion, forKey: .schemaVersion)
        try container.encodeIfPresent(contentHash.map(ContentHash.text), forKey: .contentHash)
    }
}
