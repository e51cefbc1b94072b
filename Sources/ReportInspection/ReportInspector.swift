import APMInspectCore
import JetsamParsing
import Symbolication

/// Reads any file this package knows: sniffs its content, asks each family in turn, and returns the envelope.
///
/// This is the library entry point: `apm-inspect` is a client of it, and a backend that receives uploads calls it
/// the same way, so both route a file identically (docs/library.md). It never throws: a file that cannot be read
/// is an ``Inspection`` with a ``Inspection/failure``.
public struct ReportInspector: Sendable {
    /// The families asked, in order; the first to answer wins.
    public var families: [any ReportFamily]
    /// How JetsamEvent reports are read (limits, the device catalog).
    public var jetsam = JetsamParser()
    /// Keep only what a text summary needs, so a huge file costs bounded memory.
    ///
    /// HTTP captures keep their summary and slowest requests, PowerLog rows are folded into bounded aggregates.
    /// JSON output needs everything.
    public var httpSummaryOnly = false
    /// Keep the SHA-256 of each file's bytes in ``Inspection/contentDigest`` (the backend formats' event ids).
    public var digestsContent = false
    /// Symbolicates crash reports as they are read (the user's dSYMs).
    public var symbolicator: ReportSymbolicator?

    /// The families of this package, most specific first.
    public static let standardFamilies: [any ReportFamily] = registeredFamilies.map { $0 }

    /// The registry: the families of this package, in the order the inspector asks them.
    ///
    /// More specific content first (a KSCrash report is JSON too). A family is one line here; its kinds, its model and
    /// its views come with it from its folders.
    package static let registeredFamilies: [any StandardFamily] = [
        XcodeCrashpointFamily(),
        HTTPCaptureFamily(),
        AppStoreConnectFamily(),
        MetricKitDiagnosticReportFamily(),
        MetricKitFamily(),
        PowerLogFamily(),
        KSCrashFamily(),
        JetsamFamily(),
        CrashReportFamily(),
        SystemReportFamily(),
        IPSSummaryFamily(),
    ]

    /// Every kind an envelope of this package can carry, each once, with its title: the families' kinds in registry
    /// order, then the two no family writes (what no family read, and an archive's own envelope, which the commands'
    /// input layer writes).
    package static let standardKinds: [(kind: FileKind, title: String)] = {
        var seen: Set<FileKind> = []
        var kinds: [(kind: FileKind, title: String)] = []
        for family in registeredFamilies {
            for (kind, title) in family.kinds where seen.insert(kind).inserted { kinds.append((kind, title)) }
        }
        return kinds + [(.unknown, "Unknown"), (.archive, "Archive")]
    }()

    private static let titles = Dictionary(standardKinds.map { ($0.kind, $0.title) }) { first, _ in first }

    /// What the text views call `kind` ("Crash report"); a kind no standard family carries (a family registered from
    /// outside) is shown by its JSON spelling.
    package static func title(of kind: FileKind) -> String {
        titles[kind] ?? kind.rawValue
    }

    /// An inspector that asks `families` in order (the standard ones by default).
    public init(
        families: [any ReportFamily] = ReportInspector.standardFamilies,
        httpSummaryOnly: Bool = false,
        digestsContent: Bool = false,
        symbolicator: ReportSymbolicator? = nil
    ) {
        self.families = families
        self.httpSummaryOnly = httpSummaryOnly
        self.digestsContent = digestsContent
        self.symbolicator = symbolicator
    }

    /// Reads and inspects the file at `path`.
    ///
    /// The path is opened once and read once: its bytes feed the sniffer and the families. Only a file whose first
    /// bytes a family reads in place (a PowerLog database, opened by SQLite, immutable) is read no further; a FIFO
    /// or device is read whole, from the bytes taken, since it cannot be opened again.
    public func inspect(path: String) -> Inspection {
        let read: FileReading.PrefixedRead
        do {
            read = try FileReading.contents(atPath: path, stoppingAfter: Self.headBytes) { mayInspectInPlace(head: $0) }
        } catch {
            return .failed(path, kind: .unknown, error)
        }
        switch read {
        case .whole(let bytes):
            return inspect(bytes: bytes, path: path)
        case .stopped(let head):
            for family in families {
                if let inspection = family.inspectInPlace(path: path, head: head, with: self) { return inspection }
            }
            // Not a database after all (a gzip'd HAR, an SQLite file of another app): read as any file.
            do {
                return inspect(bytes: try FileReading.contents(atPath: path), path: path)
            } catch {
                return .failed(path, kind: .unknown, error)
            }
        }
    }

    /// What the in-place families look at: the sniffers need no more.
    package static let headBytes = 8192

    /// Whether a family would read a file starting with `head` where it lies rather than from its bytes (only the
    /// first ``headBytes`` are looked at): a caller that reads files its own way stops there and calls
    /// ``inspect(path:)``.
    package func mayInspectInPlace(head: [UInt8]) -> Bool {
        let head = head.count > Self.headBytes ? Array(head.prefix(Self.headBytes)) : head
        return families.contains { $0.mayInspectInPlace(head: head) }
    }

    /// Inspects bytes already in memory; `path` is only the name the envelope gives them.
    public func inspect(bytes: [UInt8], path: String) -> Inspection {
        inspect(bytes: bytes, path: path, insideGzip: false)
    }

    /// How far one gzip-compressed report may expand: the archive limits every command reads with
    /// (``TarReader/Options``' defaults: 256 MiB per member, 100:1 past 64 MiB).
    package static let gzipExpansion = ExpansionLimit(maxBytes: 256 << 20, maxRatio: 100, floorBytes: 64 << 20)

    private func inspect(bytes: [UInt8], path: String, insideGzip: Bool) -> Inspection {
        var inspection = inspectContent(bytes: bytes, path: path)
        // A gzip no family reads (`x.ips.gz`, a JetsamEvent a tool compressed): the report inside it, read once
        // through (a gzip inside that one stays a gzip, so nesting costs one expansion).
        if !insideGzip, case .unrecognised(let summary) = inspection.report, summary.format == .gzip {
            return gunzipped(bytes, path: path, unread: inspection)
        }
        // Both are of the bytes as given (before a UTF-16 report is transcoded), and only for reports that need
        // them: a capture or a database can be gigabytes.
        switch inspection.report {
        case .crash, .watchdog, .jetsam, .metricKit, .resource, .systemWatchdog, .appStoreConnect:
            if digestsContent { inspection.contentDigest = SHA256Digest.hash(bytes) }
            if case .jetsam = inspection.report { inspection.contentHash = ContentHash.of(bytes) }
        default: break
        }
        return inspection
    }

    /// The bytes inside a gzip-compressed report, within ``gzipExpansion``: every command that reads a report from
    /// its bytes expands it the same way.
    package static func expandGzip(_ bytes: [UInt8]) throws(InputError) -> Inflate.Result {
        try Inflate.decompress(bytes, maxOutputBytes: gzipExpansion.bytes(forCompressed: bytes.count))
    }

    /// The report inside the gzip `bytes`, with a note saying so; `unread` with a diagnostic when it cannot be had.
    private func gunzipped(_ bytes: [UInt8], path: String, unread: Inspection) -> Inspection {
        let result: Inflate.Result
        do {
            result = try Self.expandGzip(bytes)
        } catch {
            var inspection = unread
            let tooLarge = error.code == .tooLarge
            inspection.diagnostics.append(
                Diagnostic(
                    .warning,
                    tooLarge ? .reportGzipTooLarge : .reportGzipUnreadable,
                    tooLarge
                        ? "the gzip was not read: \(Self.gzipExpansion.describe(compressed: bytes.count))"
                        : "the gzip was not read: \(error.message)",
                    at: error.location
                )
            )
            return inspection
        }
        var inspection = inspect(bytes: result.bytes, path: path, insideGzip: true)
        var notes = [
            Diagnostic(
                .note,
                .reportGunzipped,
                "read through gzip: \(bytes.count) compressed bytes expanded to \(result.bytes.count); byte offsets "
                    + "count the expanded bytes",
                at: nil
            )
        ]
        if result.isTruncated {
            notes.append(
                Diagnostic(
                    .warning,
                    .reportGzipTruncated,
                    "the gzip stream ends early: the \(result.bytes.count) bytes before the cut were read",
                    at: nil
                )
            )
        }
        inspection.diagnostics.insert(contentsOf: notes, at: 0)
        return inspection
    }

    private func inspectContent(bytes: [UInt8], path: String) -> Inspection {
        if let text = UTF16Text(bytes: bytes) {
            var inspection = inspectContent(bytes: text.utf8, path: path)
            inspection.diagnostics.insert(Diagnostic(.note, .reportUTF16Transcoded, text.note), at: 0)
            return inspection
        }
        let input = InspectionInput(bytes: bytes, path: path)
        for family in families {
            if let inspection = family.inspect(input, with: self) { return inspection }
        }
        if input.format == .empty {
            return Inspection(
                file: path,
                kind: .unknown,
                diagnostics: [],
                report: nil,
                failure: Inspection.Failure(code: "empty", message: "the file is empty", location: nil)
            )
        }
        return Inspection(
            file: path,
            kind: .unknown,
            diagnostics: input.isJSONOrIPS ? input.container.diagnostics : [],
            report: .unrecognised(
                UnrecognisedSummary(format: input.format, bytes: bytes.count, note: Self.note(for: input.format))
            ),
            failure: nil
        )
    }

    private static func note(for format: ContentFormat) -> String {
        switch format {
        case .ips, .json: "JSON that is not an .ips report this build reads (no bug_type, no JetsamEvent content)"
        case .sqlite: "an SQLite database without PowerLog tables"
        case .gzip: "gzip-compressed data"
        case .zlib: "zlib-compressed data (a .zhar HTTP archive is likely)"
        case .pcap, .pcapng: "a packet capture"
        // The inspector reads one report; the commands' input layer (ReportSources' InputReader) opens archives.
        case .tar: "a tar archive: `apm-inspect inspect` or `scan` reads the reports inside it"
        case .xml: "XML"
        case .text: "text that is not a known report"
        case .binary: "binary data that is not a known report"
        default: "not a known report"
        }
    }
}
