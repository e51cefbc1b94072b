import APMInspectCore
import PowerLogReading

/// PowerLog databases (`*.PLSQL`, `.EPSQL`, `.BGSQL`, gzip'd or not).
public struct PowerLogFamily: StandardFamily {
    /// How the family is named in diagnostics and in `--verbose` output.
    public var name: String { "PowerLog database" }

    /// The kinds of its envelopes, with their titles.
    package var kinds: KeyValuePairs<FileKind, String> { [.powerLog: "PowerLog"] }

    /// The family; it has no options (the inspector carries them).
    public init() {}

    /// A database read from bytes (a FIFO, a device, an archive member); nil for an SQLite file without PowerLog
    /// tables, which the inspector then describes as an unknown database.
    public func inspect(_ input: InspectionInput, with inspector: ReportInspector) -> Inspection? {
        guard Self.isDatabase(input.format, prefix: input.bytes.prefix(8192)) else { return nil }
        return Self.inspect(path: input.path, bytes: input.bytes, summaryOnly: inspector.httpSummaryOnly)
    }

    /// A regular file is opened by SQLite where it lies (immutable), never read into memory.
    public func inspectInPlace(path: String, head: [UInt8], with inspector: ReportInspector) -> Inspection? {
        guard Self.isDatabase(ContentSniffer.magicFormat(of: head), prefix: head[...]) else { return nil }
        return Self.inspect(path: path, bytes: head, summaryOnly: inspector.httpSummaryOnly)
    }

    /// True for an SQLite header: the database is then opened where it lies, not read into memory.
    public func mayInspectInPlace(head: [UInt8]) -> Bool {
        // Asked of every file a scan reads: the magic number is all a database needs, not a full sniff.
        Self.isDatabase(ContentSniffer.magicFormat(of: head), prefix: head[...])
    }

    /// `format` is the sniffer's verdict or only its magic number's: SQLite and gzip are told by theirs alone.
    private static func isDatabase(_ format: ContentFormat?, prefix: ArraySlice<UInt8>) -> Bool {
        switch format {
        case .sqlite?: true
        case .gzip?: PowerLogReader.isCompressedSQLite(prefix: Array(prefix))
        default: false
        }
    }

    /// Reads the database; nil when it holds no PowerLog table.
    ///
    /// A regular file is opened by SQLite in place (immutable); anything else (a FIFO, a device, an archive
    /// member's virtual path) cannot be opened again, so the `bytes` already read go through a private copy.
    /// `summaryOnly` (text output) folds the rows into bounded aggregates.
    static func inspect(path: String, bytes: [UInt8], summaryOnly: Bool) -> Inspection? {
        do {
            let reader = PowerLogReader()
            let result: PowerLogReadResult
            switch (FileReading.isRegularFile(atPath: path), summaryOnly) {
            case (true, true): result = try reader.readSummary(path: path)
            case (true, false): result = try reader.read(path: path)
            case (false, true): result = try reader.readSummary(bytes: bytes, name: path)
            case (false, false): result = try reader.read(bytes: bytes, name: path)
            }
            return Inspection(
                file: path,
                kind: .powerLog,
                diagnostics: result.diagnostics,
                report: .powerLog(result.report),
                failure: nil
            )
        } catch  where error.code == .notPowerLog || error.code == .notSQLite {
            return nil
        } catch {
            return .failed(path, kind: .powerLog, error)
        }
    }
}
