import APMInspectCore
import CrashReportParsing
import HTTPCaptureParsing
import JetsamParsing
import MetricKitParsing
import PowerLogReading
import WatchdogAnalysis

/// What `inspect` learned about one file: the envelope of the JSON output contract.
struct Inspection: Encodable {
    /// The model of the report, by kind.
    enum Report: Encodable {
        case jetsam(JetsamEvent)
        case ips(IPSSummary)
        case unrecognised(UnrecognisedSummary)
        case crash(CrashReport)
        case watchdog(CrashReport, WatchdogTermination)
        case http(HTTPCapture)
        case powerLog(PowerLogReport)
        case metricKit(MetricKitReport)

        func encode(to encoder: any Encoder) throws {
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
            }
        }
    }

    private enum WatchdogKey: String, CodingKey {
        case watchdog
    }

    /// The path as the user gave it.
    var file: String
    var kind: FileKind
    var diagnostics: [Diagnostic]
    var report: Report?
    /// Set when the file could not be read or parsed (exit status 1).
    var failure: Failure?
    /// The sysdiagnose the report came from, when it was found inside one.
    var source: SysdiagnoseFacts?
    /// SHA-256 of the bytes read, when the inspector was asked for it (the backend formats' event ids); not encoded.
    var contentDigest: [UInt8]?

    struct Failure: Encodable {
        var code: String
        var message: String
        var location: SourceLocation?
    }

    private enum CodingKeys: String, CodingKey {
        case file
        case kind
        case diagnostics
        case report
        case error
        case source
    }

    func encode(to encoder: any Encoder) throws {
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
    }
}

/// The overview of an `.ips` file whose family has no model in this build (panics, stackshots, crashes …).
struct IPSSummary: Encodable {
    var bugType: String?
    var bugTypeName: String?
    var family: String?
    var header: IPSHeader?
    var bodyKind: String
    var bodyBytes: Int
    var note: String
}

/// What is known of a file no parser in this build reads.
struct UnrecognisedSummary: Encodable {
    var format: ContentFormat
    var bytes: Int
    var note: String
}
