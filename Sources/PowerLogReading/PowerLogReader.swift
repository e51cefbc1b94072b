import APMInspectCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads PowerLog databases (`*.PLSQL`, `*.PLSQL.gz`, `*.EPSQL`, `*.BGSQL`) into a ``PowerLogReport``.
///
/// Files are recognised by content: SQLite, or gzip holding SQLite (decompressed by the system zlib into a private
/// temporary file that is always removed, and only as far as the database's header says it reaches). Nothing is
/// ever written beside the input: a database is opened through SQLite's `immutable` URI, and one with a `-wal`
/// log holding content is copied with it to a private folder so SQLite can replay the log there. A FIFO or
/// device is read once, under a byte limit, into a private copy. Several files of one device merge into one
/// history with repeated rows counted once.
public struct PowerLogReader: Sendable {
    /// What is read and the bounds reading stays within.
    public var options: PowerLogReadOptions

    /// A reader with the given options.
    public init(options: PowerLogReadOptions = PowerLogReadOptions()) {
        self.options = options
    }

    /// Reads one file.
    ///
    /// - Throws: ``PowerLogError`` when the file cannot be read, is not SQLite, or holds no PowerLog table.
    public func read(path: String) throws(PowerLogError) -> PowerLogReadResult {
        try read(path: path, summary: nil)
    }

    /// Reads one file for a text summary, in memory that does not grow with the row count.
    ///
    /// Rows are folded into bounded aggregates as SQLite yields them. The report's figures are those of ``read(path:)`` within `limits`; its
    /// sample, session and exit lists are thinned or cut to the most recent (``PowerLogReport/abridged`` has the
    /// counts), and a bound that was reached is a warning.
    ///
    /// - Throws: ``PowerLogError`` as ``read(path:)``.
    package func readSummary(path: String, limits: PowerLogSummaryLimits = PowerLogSummaryLimits())
        throws(PowerLogError)
        -> PowerLogReadResult
    {
        try read(path: path, summary: limits)
    }

    /// Reads one regular file for a JSON document written as it is read.
    ///
    /// The battery samples and sessions are encoded into `spool` in time order as SQLite yields them, never held:
    /// the report's battery section has empty `samples` and `sessions`, and the document writes the spool's arrays in
    /// their place. Everything else, and the arrays' bytes, are those of ``read(paths:)`` given the one path.
    ///
    /// The caller checks that `path` is a regular file (a FIFO cannot be read twice) and, before writing, that the
    /// spool is still usable (``PowerLogBatterySpool/isUsable``); when it is not, it reads the file again without.
    ///
    /// - Throws: ``PowerLogError`` as ``read(path:)``.
    package func readStreamed(path: String, spool: PowerLogBatterySpool) throws(PowerLogError) -> PowerLogReadResult {
        PowerLogAnalysis.result(from: try records(path: path, batterySpool: spool), options: options)
    }

    /// Reads a database (or gzip'd database) already in memory, named `name` in the report: SQLite needs a file,
    /// so the bytes go to a private temporary copy that is removed before this returns.
    ///
    /// - Throws: ``PowerLogError`` as ``read(path:)``.
    public func read(bytes: [UInt8], name: String) throws(PowerLogError) -> PowerLogReadResult {
        try read(bytes: bytes, name: name, summary: nil)
    }

    /// ``read(bytes:name:)`` for a text summary, as ``readSummary(path:limits:)``.
    package func readSummary(bytes: [UInt8], name: String, limits: PowerLogSummaryLimits = PowerLogSummaryLimits())
        throws(PowerLogError) -> PowerLogReadResult
    {
        try read(bytes: bytes, name: name, summary: limits)
    }

    private func read(path: String, summary: PowerLogSummaryLimits?) throws(PowerLogError) -> PowerLogReadResult {
        guard FileReading.isRegularFile(atPath: path) else {
            // A FIFO or device can be read once only: take its bytes, then read them from a private copy.
            return try read(bytes: try Self.readOnce(path, limit: options.maxStreamBytes), name: path, summary: summary)
        }
        return PowerLogAnalysis.result(from: try records(path: path, summary: summary), options: options)
    }

    private func read(bytes: [UInt8], name: String, summary: PowerLogSummaryLimits?) throws(PowerLogError)
        -> PowerLogReadResult
    {
        let folder = try ScratchFolder(in: options.temporaryDirectory)
        defer { folder.remove() }
        let copy = try folder.write(bytes, as: "input")
        let records = try records(path: copy, displayName: name, summary: summary)
        return PowerLogAnalysis.result(from: consume records, options: options)
    }

    /// Reads several files of one device (rotated archives, a sysdiagnose copy, the live log) as one history.
    ///
    /// A file that cannot be read becomes an error diagnostic while the others are still read.
    ///
    /// - Throws: ``PowerLogError`` when no file could be read (the first file's error).
    public func read(paths: [String]) throws(PowerLogError) -> PowerLogReadResult {
        do {
            return try readNamingFailure(paths: paths)
        } catch {
            var named = error.error
            if let path = error.path { named.message = "\(path): \(named.message)" }
            throw named
        }
    }

    /// The archive reader's codes for a limit that stopped it: an archive without a database read to its end
    /// holds none, one stopped early may hold one past the limit, and the limit is the reason to give.
    private static let archiveLimits: Set<Diagnostic.Code> = [
        .archiveTotalSizeLimit, .archiveExpansionRatioLimit, .archiveMemberCountLimit,
    ]

    /// What ``readNamingFailure(paths:)`` throws: the error, and the given path it is about when it is about one.
    package struct PathFailure: Error, Sendable {
        package var error: PowerLogError
        /// The given path the error is about, which its message does not repeat; nil when it is about no one path.
        package var path: String?

        package init(_ error: PowerLogError, path: String? = nil) {
            self.error = error
            self.path = path
        }
    }

    /// ``read(paths:)`` for a caller that shows the file apart from the message (the CLI's `path: error: message`
    /// line): the path an error is about comes as a value, so the file is named once, not found again in the words.
    package func readNamingFailure(paths: [String]) throws(PathFailure) -> PowerLogReadResult {
        guard !paths.isEmpty else { throw PathFailure(PowerLogError(.noInput, "no PowerLog file given")) }
        var merged: PowerLogRecords?
        var failures: [Diagnostic] = []
        var firstError: PathFailure?
        var scratch: ScratchFolder?
        defer { scratch?.remove() }
        var inputs: [(path: String, name: String)] = []
        func scratchFolder() throws(PowerLogError) -> ScratchFolder {
            if let scratch { return scratch }
            let folder = try ScratchFolder(in: options.temporaryDirectory)
            scratch = folder
            return folder
        }
        for (index, given) in paths.enumerated() {
            var path = given
            if !FileReading.isRegularFile(atPath: given) {
                // Opened once only: a FIFO's content cannot be read a second time (the sniffing read would take it).
                do {
                    let bytes = try Self.readOnce(given, limit: options.maxStreamBytes)
                    path = try scratchFolder().write(bytes, as: "stream-\(index)")
                } catch {
                    firstError = firstError ?? PathFailure(error)
                    failures.append(Diagnostic(.error, .input(error.code), "\(given): \(error.message)"))
                    continue
                }
            }
            guard Self.isArchive(path) else {
                inputs.append((path, given))
                continue
            }
            do {
                let folder = try scratchFolder()
                let (members, findings) = try extractPowerLogs(
                    fromArchive: path,
                    named: given,
                    into: folder,
                    first: inputs.count
                )
                failures += findings
                if members.isEmpty {
                    // When a limit stopped the reading, that is the reason, not an absence.
                    let stop = findings.first { Self.archiveLimits.contains($0.code) }.map { "; \($0.message)" } ?? ""
                    let reason = "the archive holds no PowerLog database\(stop)"
                    failures.append(Diagnostic(.error, .powerlogNoDatabaseInArchive, "\(given): \(reason)"))
                    firstError = firstError ?? PathFailure(PowerLogError(.noInput, reason), path: given)
                }
                inputs += members
            } catch {
                firstError = firstError ?? PathFailure(error)
                failures.append(Diagnostic(.error, .input(error.code), "\(given): \(error.message)"))
            }
        }
        for (path, name) in inputs {
            do {
                let records = try records(path: path, displayName: name)
                if var base = merged {
                    // Released here, so `base` holds the only reference and merging grows its lists in place.
                    merged = nil
                    if let a = base.device, let b = records.device, a != b {
                        failures.append(
                            Diagnostic(
                                .warning,
                                .powerlogOtherDevice,
                                "\(name) is from device \(b), the history so far from \(a)"
                            )
                        )
                    }
                    base.merge(records)
                    merged = base
                } else {
                    merged = records
                }
            } catch {
                firstError = firstError ?? PathFailure(error)
                failures.append(Diagnostic(.error, .input(error.code), "\(name): \(error.message)"))
            }
        }
        guard var all = merged else {
            throw firstError ?? PathFailure(PowerLogError(.noInput, "no PowerLog file could be read"))
        }
        // Released, so the analysis frees each row list of `all` as it takes it.
        merged = nil
        let diagnostics = all.diagnostics + failures
        let report = PowerLogAnalysis.report(from: &all, options: options)
        return PowerLogReadResult(report: report, diagnostics: diagnostics)
    }

    /// True when `prefix` (the first bytes of a file) is gzip whose content starts as an SQLite database.
    package static func isCompressedSQLite(prefix: [UInt8]) -> Bool {
        guard prefix.count > 2, prefix[0] == 0x1F, prefix[1] == 0x8B else { return false }
        guard let inflated = ContentSniffer.inflatedPrefix(of: prefix, count: 64) else { return false }
        return ContentSniffer.format(of: inflated) == .sqlite
    }

    // MARK: - One file

    /// True when the file at `path` is a tar archive, plain or gzip-compressed (a sysdiagnose `.tar.gz`).
    ///
    /// Only a regular file is looked at: the head of a FIFO can be read only once, by the reader that keeps it.
    package static func isArchive(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        guard let head = try? head(of: path) else { return false }
        if TarReader.isTar(head) { return true }
        // However compressible the first member is, inflate only as far as the first header.
        guard head.count > 2, head[0] == 0x1F, head[1] == 0x8B,
            let inflated = ContentSniffer.inflatedPrefix(of: head, count: 512)
        else { return false }
        return TarReader.isTar(inflated)
    }

    /// Writes the PowerLog members of a tar archive (and their `-wal`/`-shm` siblings) into `folder`.
    ///
    /// - Returns: each database's temporary path with its display name (`archive:member`), and the archive's
    ///   findings.
    private func extractPowerLogs(
        fromArchive archive: String,
        named archiveName: String,
        into folder: ScratchFolder,
        first: Int
    ) throws(PowerLogError) -> ([(path: String, name: String)], [Diagnostic]) {
        var members: [(path: String, name: String)] = []
        var targets: [String: String] = [:]
        var failure: PowerLogError?
        let findings: [Diagnostic]
        do {
            findings = try TarReader().read(fileAt: archive) { entry in
                guard case .file = entry.kind, failure == nil else { return }
                let name = entry.path.split(separator: "/").last.map(String.init) ?? entry.path
                guard !name.hasPrefix("._") else { return }
                let lower = name.lowercased()
                let isDatabase =
                    lower.hasSuffix(".plsql") || lower.hasSuffix(".plsql.gz") || lower.hasSuffix(".epsql")
                    || lower.hasSuffix(".bgsql")
                let isSibling = lower.hasSuffix("sql-wal") || lower.hasSuffix("sql-shm")
                let target: String
                if isDatabase {
                    // One subfolder per member, so equal names in different folders do not collide.
                    let directory = folder.path + "/" + String(first + members.count)
                    guard
                        (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true))
                            != nil
                    else {
                        failure = PowerLogError(.unreadable, "cannot create a temporary folder for \(entry.path)")
                        return
                    }
                    target = directory + "/" + Self.safeName(name)
                    targets[entry.path] = target
                    members.append((target, archiveName + "!/" + entry.path))
                } else if isSibling, let owner = targets[String(entry.path.dropLast(4))] {
                    // Tar lists `x.PLSQL` before `x.PLSQL-shm` and `x.PLSQL-wal`; a sibling without its database is
                    // of no use.
                    target = owner + String(name.suffix(4))
                } else {
                    return
                }
                if entry.skippedForSize {
                    failure = PowerLogError(.unreadable, "\(entry.path) is larger than the archive reader's limit")
                } else if (try? TemporaryFiles.write(entry.data, toNewFile: target)) == nil {
                    failure = PowerLogError(.unreadable, "cannot write \(entry.path) to a temporary folder")
                }
            }
        } catch let error as InputError {
            throw PowerLogError(.unreadable, "cannot read the archive: \(error.message)", at: error.location)
        } catch {
            throw PowerLogError(.unreadable, "cannot read the archive: \(error)")
        }
        if let failure { throw failure }
        return (members, findings)
    }

    private static func safeName(_ name: String) -> String {
        String(name.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
    }

    private func records(
        path: String,
        displayName: String? = nil,
        summary: PowerLogSummaryLimits? = nil,
        batterySpool: PowerLogBatterySpool? = nil
    ) throws(PowerLogError) -> PowerLogRecords {
        let shown = displayName ?? path
        let head = try Self.head(of: path)
        let format = ContentSniffer.format(of: head)
        var scratch: ScratchFolder?
        defer { scratch?.remove() }
        var openPath = path
        var sourceFormat = "sqlite"
        var diagnostics: [Diagnostic] = []
        let hasWAL = format == .sqlite && Self.fileSize(path + "-wal").map { $0 > 0 } == true
        switch format {
        case .sqlite:
            diagnostics += Self.sideFileFindings(path, shown: shown, hasWAL: hasWAL)
            if hasWAL {
                let folder = try ScratchFolder(in: options.temporaryDirectory)
                scratch = folder
                openPath = try folder.copy(path, as: "powerlog.sqlite", siblings: ["-wal", "-shm"])
            }
        case .gzip:
            sourceFormat = "gzip"
            let folder = try ScratchFolder(in: options.temporaryDirectory)
            scratch = folder
            openPath = folder.path + "/powerlog.sqlite"
            diagnostics += try inflateDatabase(path, to: openPath, shown: shown)
        default:
            throw PowerLogError(.notSQLite, "not an SQLite database (content is \(format.rawValue))")
        }
        let database: PowerLogDatabase
        do {
            // The evidence itself is opened immutable: SQLite then never creates -shm or -wal beside it.
            database = try PowerLogDatabase(path: openPath, immutable: scratch == nil)
        } catch {
            // An SQLite built without URI support cannot open the immutable form: read a private copy instead.
            guard scratch == nil else { throw error }
            let folder = try ScratchFolder(in: options.temporaryDirectory)
            scratch = folder
            openPath = try folder.copy(path, as: "powerlog.sqlite", siblings: ["-wal", "-shm"])
            database = try PowerLogDatabase(path: openPath)
        }
        defer { database.close() }
        guard Self.looksLikePowerLog(database.tables.map(\.name)) else {
            throw PowerLogError(
                .notPowerLog,
                "an SQLite database without PowerLog tables (\(database.tables.count) other tables)"
            )
        }
        var extractor = PowerLogExtractor(
            database: database,
            path: shown,
            options: options,
            summary: summary,
            batterySpool: batterySpool
        )
        var records = extractor.extract()
        records.sources = [
            PowerLogReport.Source(
                path: shown,
                format: sourceFormat,
                tableCount: database.tables.count,
                withWriteAheadLog: hasWAL
            )
        ]
        records.diagnostics = diagnostics + records.diagnostics
        return records
    }

    /// Decompresses a `.PLSQL.gz` into `destination`, refusing early what cannot be a database and writing no more
    /// than the database's own header says it holds.
    ///
    /// The first 100 decompressed bytes are the SQLite header: when its page count is valid (bytes 92–95 equal to
    /// the change counter at 24–27, as every SQLite since 3.7.0 writes) the database ends at page size × page
    /// count, so anything after (a copy padded with zeros, a bomb) is never decompressed; a database declaring more
    /// than ``PowerLogReadOptions/maxDecompressedBytes`` is refused before a byte is written. Without a valid count
    /// (a pre-3.7.0 file) the option is the bound, checked while writing.
    ///
    /// - Returns: warnings about the stream (cut off, or longer than the database).
    private func inflateDatabase(_ source: String, to destination: String, shown: String) throws(PowerLogError)
        -> [Diagnostic]
    {
        // Relative to the compressed size, as for archives: a small file that claims gigabytes is a bomb.
        let expansion = ExpansionLimit(maxBytes: options.maxDecompressedBytes)
        let compressed = Int(clamping: Self.fileSize(source) ?? 0)
        let limit = expansion.bytes(forCompressed: compressed)
        var declared: Int?
        let outcome: Inflate.FileOutcome
        do {
            outcome = try Inflate.decompressFile(at: source, to: destination, maxOutputBytes: limit, headLength: 100) {
                (head) throws(InputError) -> Int? in
                guard ContentSniffer.format(of: Array(head.prefix(64))) == .sqlite else {
                    throw InputError(.wrongKind, "the gzip stream does not hold an SQLite database")
                }
                declared = Self.declaredDatabaseSize(head)
                if let size = declared, size > limit {
                    throw InputError(
                        .tooLarge,
                        "the database declares \(size) bytes, more than the decompression limit of \(limit) bytes"
                    )
                }
                return declared
            }
        } catch  where error.code == .wrongKind {
            throw PowerLogError(.notSQLite, error.message)
        } catch  where error.code == .tooLarge {
            // The head's own refusal says what the database declared; the inflater's says only the byte count.
            let reason = declared.map { _ in error.message } ?? expansion.describe(compressed: compressed)
            throw PowerLogError(
                .decompression,
                "refused: \(reason) (maxDecompressedBytes); nothing more was decompressed",
                at: error.location
            )
        } catch {
            throw PowerLogError(.decompression, "cannot decompress: \(error.message)", at: error.location)
        }
        var findings: [Diagnostic] = []
        if outcome.isTruncated {
            findings.append(
                Diagnostic(
                    .warning,
                    .powerlogTruncatedGzip,
                    "\(shown): the gzip stream is cut off; the database may be incomplete"
                )
            )
        }
        if outcome.stoppedAtLength, let declared {
            findings.append(
                Diagnostic(
                    .warning,
                    .powerlogGzipPastDeclaredSize,
                    "\(shown): the gzip stream goes on past the database's declared size of \(declared) bytes; "
                        + "the rest was not decompressed"
                )
            )
        }
        return findings
    }

    /// What the files SQLite keeps beside a database say about it.
    ///
    /// A hot rollback journal (`-journal` starting with its magic number) means a transaction was cut off: the
    /// database may hold some of its pages and miss the rest, and applying the journal means writing to the
    /// database, which is never done to evidence (it is opened immutable). A `-wal` log with content holds the
    /// last transactions: it is replayed on a private copy, which is worth saying since the file alone lacks them.
    static func sideFileFindings(_ path: String, shown: String, hasWAL: Bool) -> [Diagnostic] {
        let name = shown.split(separator: "/").last.map(String.init) ?? shown
        var findings: [Diagnostic] = []
        if let head = try? head(of: path + "-journal"), head.count >= 8,
            head.prefix(8).elementsEqual([0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7])
        {
            findings.append(
                Diagnostic(
                    .warning,
                    .powerlogHotJournal,
                    "\(name): a hot rollback journal (\(name)-journal) lies beside the database: its last "
                        + "transaction was cut off, so the data may miss it or hold part of it; the database was read "
                        + "as it is, without applying the journal"
                )
            )
        } else if (fileSize(path + "-journal") ?? 0) > 0 {
            findings.append(
                Diagnostic(
                    .note,
                    .powerlogColdJournal,
                    "\(name): a rollback journal (\(name)-journal) lies beside the database but is not hot (no "
                        + "journal header): nothing in it was applied"
                )
            )
        }
        if hasWAL {
            findings.append(
                Diagnostic(
                    .note,
                    .powerlogWALReplayed,
                    "\(name): its write-ahead log (\(name)-wal) holds the last transactions: they were replayed on "
                        + "a private copy (nothing is written beside the database)"
                )
            )
        }
        return findings
    }

    /// Page size × page count from an SQLite header, when the count is valid; nil otherwise.
    static func declaredDatabaseSize(_ header: [UInt8]) -> Int? {
        guard header.count >= 100 else { return nil }
        func be32(_ at: Int) -> UInt32 {
            header[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        let rawPageSize = Int(header[16]) << 8 | Int(header[17])
        // 1 means 65536; anything else must be a power of two from 512.
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { return nil }
        let pages = be32(28)
        guard pages > 0, be32(92) == be32(24) else { return nil }
        return pageSize * Int(pages)
    }

    /// The bytes of a FIFO, device or other non-regular file, read once and stopped at `limit`.
    static func readOnce(_ path: String, limit: Int) throws(PowerLogError) -> [UInt8] {
        do {
            return try FileReading.contents(atPath: path, maxBytes: limit)
        } catch {
            throw PowerLogError(
                .unreadable,
                "\(error.message) (maxStreamBytes, the limit for a FIFO or device, which is read into memory)"
            )
        }
    }

    /// PowerLog names its tables `PL<Agent>_<EntryType>_<Name>`; the EPSQL/BGSQL siblings use their own families.
    static func looksLikePowerLog(_ names: [String]) -> Bool {
        names.contains { name in
            (name.hasPrefix("PL") && PowerLogExtractor.entryType(of: name) != nil)
                || name.hasPrefix("PPTStorageOperator")
                || name.hasPrefix("BatteryDataCollection_") || name.hasPrefix("BackgroundProcessing_")
                || name.hasPrefix("PLCoreStorage")
        }
    }

    private static func head(of path: String) throws(PowerLogError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            // The caller names the file: the message does not repeat it.
            throw PowerLogError(.unreadable, "cannot open the file: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 8192)
        let got = buffer.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
        guard got >= 0 else { throw PowerLogError(.unreadable, "cannot read the file") }
        return Array(buffer.prefix(got))
    }

    private static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }
}

/// A private temporary folder (mode 0700, made by `mkdtemp`) for decompressed and copied databases, removed with all
/// its content; registered with ``TemporaryFiles`` so the executable removes it on Ctrl-C too.
struct ScratchFolder {
    let path: String

    init(in base: String?) throws(PowerLogError) {
        do {
            path = try TemporaryFiles.makeFolder(in: base, prefix: "apm-inspect-powerlog")
        } catch {
            throw PowerLogError(.unreadable, error.message)
        }
    }

    /// Copies `source` (and its existing siblings `source + suffix`) into the folder; returns the copy's path.
    func copy(_ source: String, as name: String, siblings: [String]) throws(PowerLogError) -> String {
        let target = path + "/" + name
        do {
            try FileManager.default.copyItem(atPath: source, toPath: target)
            for suffix in siblings where FileManager.default.fileExists(atPath: source + suffix) {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
            }
        } catch {
            throw PowerLogError(.unreadable, "cannot copy \(source) to a temporary folder: \(error)")
        }
        return target
    }

    /// Writes `bytes` to a new private file `name` in the folder; returns its path.
    func write(_ bytes: [UInt8], as name: String) throws(PowerLogError) -> String {
        let target = path + "/" + name
        do {
            try TemporaryFiles.write(bytes, toNewFile: target)
        } catch {
            throw PowerLogError(.unreadable, "cannot write a temporary copy: \(error.message)")
        }
        return target
    }

    func remove() { TemporaryFiles.remove(path) }
}

/// `read(2)`, named apart from ``PowerLogReader/read(path:)``.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
