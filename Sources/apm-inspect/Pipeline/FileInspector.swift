import APMInspectCore
import BackendEvents
import CrashReportParsing
import HTTPCaptureParsing
import JetsamParsing
import MetricKitParsing
import PowerLogReading

/// Sniffs a file and routes it to the parser for its family.
struct FileInspector: Sendable {
    var jetsam = JetsamParser()
    /// For text output: HTTP captures keep their summary and slowest requests only (see `inspectHTTP`), and
    /// PowerLog rows are folded into bounded aggregates (see `inspectPowerLog`).
    var httpSummaryOnly = false
    /// Keep the SHA-256 of each file's bytes in ``Inspection/contentDigest`` (the backend formats' event ids).
    var digestsContent = false
    /// `--dsym`: crash reports are symbolicated against it.
    var symbolication: ReportSymbolication?

    /// Reads and inspects the file at `path`; never throws: failures are part of the result.
    ///
    /// The path is opened once: its bytes feed the sniffer and the parsers. Only a database from a regular file is
    /// opened again, by SQLite (immutable); one from a FIFO or device is read from the bytes already taken.
    func inspect(path: String) -> Inspection {
        // A database is read by SQLite from the file: its bytes need not be held (a PowerLog can be gigabytes).
        if let inspection = inspectDatabaseInPlace(path: path) { return inspection }
        let bytes: [UInt8]
        do {
            bytes = try FileReading.contents(atPath: path)
        } catch {
            return Inspection(
                file: path,
                kind: .unknown,
                diagnostics: [],
                report: nil,
                failure: Inspection.Failure(code: error.code.rawValue, message: error.message, location: error.location)
            )
        }
        return inspect(bytes: bytes, path: path)
    }

    /// Inspects bytes already in memory.
    func inspect(bytes: [UInt8], path: String) -> Inspection {
        if digestsContent {
            var plain = self
            plain.digestsContent = false
            var inspection = plain.inspect(bytes: bytes, path: path)
            // Only reports that become events need it: a capture or a database can be gigabytes.
            switch inspection.report {
            case .crash, .watchdog, .jetsam, .metricKit: inspection.contentDigest = SHA256Digest.hash(bytes)
            default: break
            }
            return inspection
        }
        if let text = UTF16Text(bytes: bytes) {
            var inspection = inspect(bytes: text.utf8, path: path)
            inspection.diagnostics.insert(Diagnostic(.note, text.note), at: 0)
            return inspection
        }
        let format = ContentSniffer.format(of: bytes)
        if let httpKind = HTTPCaptureReader.recognise(bytes) {
            return inspectHTTP(bytes: bytes, kind: httpKind, path: path, summaryOnly: httpSummaryOnly)
        }
        if format == .json, MetricKitReader.recognise(bytes) { return inspectMetricKit(bytes: bytes, path: path) }
        switch format {
        case .sqlite:
            if let inspection = inspectPowerLog(path: path, bytes: bytes) { return inspection }
        case .gzip where PowerLogReader.isCompressedSQLite(prefix: Array(bytes.prefix(8192))):
            if let inspection = inspectPowerLog(path: path, bytes: bytes) { return inspection }
        default:
            break
        }
        switch format {
        case .crashText:
            return inspectCrash(IPSContainer(bytes: bytes), path: path)
        // A one-line KSCrash report that mentions `os_version` sniffs as an `.ips` header.
        case .json where ContentSniffer.mentionsKSCrashKeys(bytes),
            .ips where ContentSniffer.mentionsKSCrashKeys(bytes):
            if let inspection = inspectKSCrash(bytes: bytes, path: path) { return inspection }
            return inspectIPS(IPSContainer(bytes: bytes), path: path, format: format, size: bytes.count)
        case .ips, .json:
            return inspectIPS(IPSContainer(bytes: bytes), path: path, format: format, size: bytes.count)
        case .empty:
            return Inspection(
                file: path,
                kind: .unknown,
                diagnostics: [],
                report: nil,
                failure: Inspection.Failure(code: "empty", message: "the file is empty", location: nil)
            )
        default:
            return Inspection(
                file: path,
                kind: .unknown,
                diagnostics: [],
                report: .unrecognised(
                    UnrecognisedSummary(format: format, bytes: bytes.count, note: Self.note(for: format))
                ),
                failure: nil
            )
        }
    }

    private func inspectIPS(_ container: IPSContainer, path: String, format: ContentFormat, size: Int) -> Inspection {
        let family = container.bugType?.family
        if family == .jetsam || (family == nil && JetsamParser.isJetsamEvent(container)) {
            do {
                let result = try jetsam.parse(container)
                return Inspection(
                    file: path,
                    kind: .jetsamEvent,
                    diagnostics: result.diagnostics,
                    report: .jetsam(result.event),
                    failure: nil
                )
            } catch {
                return Inspection(
                    file: path,
                    kind: .jetsamEvent,
                    diagnostics: container.diagnostics,
                    report: nil,
                    failure: Inspection.Failure(
                        code: error.code.rawValue,
                        message: error.message,
                        location: error.location
                    )
                )
            }
        }
        if CrashReportParser.isCrashReport(container) {
            return inspectCrash(container, path: path)
        }
        guard let bugType = container.bugType else {
            return Inspection(
                file: path,
                kind: .unknown,
                diagnostics: container.diagnostics,
                report: .unrecognised(
                    UnrecognisedSummary(
                        format: format,
                        bytes: size,
                        note: "JSON that is not an .ips report this build reads (no bug_type, no JetsamEvent content)"
                    )
                ),
                failure: nil
            )
        }
        let kind: FileKind
        let note: String
        switch bugType.family {
        case .panic:
            kind = .panic
            note = "a kernel panic or force reset report, not an app crash"
        case .stackshot:
            kind = .stackshot
            note = "a stackshot: a snapshot of every thread, not a crash"
        default:
            kind = .otherIPS
            note = "bug_type \(bugType.code) (\(bugType.name)) has no model in this build"
        }
        return Inspection(
            file: path,
            kind: kind,
            diagnostics: container.diagnostics,
            report: .ips(
                IPSSummary(
                    bugType: bugType.code,
                    bugTypeName: bugType.name,
                    family: bugType.family.rawValue,
                    header: container.header,
                    bodyKind: container.bodyKind.rawValue,
                    bodyBytes: container.body.count,
                    note: note
                )
            ),
            failure: nil
        )
    }

    private static func note(for format: ContentFormat) -> String {
        switch format {
        case .sqlite: "an SQLite database without PowerLog tables"
        case .gzip: "gzip-compressed data"
        case .zlib: "zlib-compressed data (a .zhar HTTP archive is likely)"
        case .pcap, .pcapng: "a packet capture; captures are read by a later version"
        case .tar: "a tar archive (sysdiagnose archives are read by a later version)"
        case .xml: "XML"
        case .text: "text that is not a known report"
        case .binary: "binary data that is not a known report"
        default: "not a known report"
        }
    }
}
