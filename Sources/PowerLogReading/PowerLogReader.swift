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
/// temporary file that is always removed). A database with `-wal`/`-shm` siblings is copied with them to a private
/// folder so SQLite can read the log without writing beside the evidence. Several files of one device merge into
/// one history with repeated rows counted once.
public struct PowerLogReader: Sendable {
    public var options: PowerLogReadOptions

    public init(options: PowerLogReadOptions = PowerLogReadOptions()) {
        self.options = options
    }

    /// Reads one file.
    ///
    /// - Throws: ``PowerLogError`` when the file cannot be read, is not SQLite, or holds no PowerLog table.
    public func read(path: String) throws(PowerLogError) -> PowerLogReadResult {
        let records = try records(path: path)
        return PowerLogReadResult(
            report: PowerLogAnalysis.report(from: records, options: options),
            diagnostics: records.diagnostics
        )
    }

    /// Reads several files of one device (rotated archives, a sysdiagnose copy, the live log) as one history.
    ///
    /// A file that cannot be read becomes an error diagnostic while the others are still read.
    ///
    /// - Throws: ``PowerLogError`` when no file could be read (the first file's error).
    public func read(paths: [String]) throws(PowerLogError) -> PowerLogReadResult {
        guard !paths.isEmpty else { throw PowerLogError(.noInput, "no PowerLog file given") }
        var merged: PowerLogRecords?
        var failures: [Diagnostic] = []
        var firstError: PowerLogError?
        var scratch: ScratchFolder?
        defer { scratch?.remove() }
        var inputs: [(path: String, name: String)] = []
        for path in paths {
            guard Self.isArchive(path) else {
                inputs.append((path, path))
                continue
            }
            do {
                let folder: ScratchFolder
                if let existing = scratch {
                    folder = existing
                } else {
                    folder = try ScratchFolder(in: options.temporaryDirectory)
                    scratch = folder
                }
                let (members, findings) = try extractPowerLogs(fromArchive: path, into: folder, first: inputs.count)
                failures += findings
                if members.isEmpty {
                    // When a limit stopped the reading, that is the reason, not an absence.
                    let stop = findings.first { $0.message.contains("limit reached") }.map { "; \($0.message)" } ?? ""
                    let message = "\(path): the archive holds no PowerLog database\(stop)"
                    failures.append(Diagnostic(.error, message))
                    firstError = firstError ?? PowerLogError(.noInput, message)
                }
                inputs += members
            } catch {
                firstError = firstError ?? error
                failures.append(Diagnostic(.error, "\(path): \(error.message)"))
            }
        }
        for (path, name) in inputs {
            do {
                let records = try records(path: path, displayName: name)
                if var base = merged {
                    if let a = base.device, let b = records.device, a != b {
                        failures.append(
                            Diagnostic(.warning, "\(name) is from device \(b), the history so far from \(a)")
                        )
                    }
                    base.merge(records)
                    merged = base
                } else {
                    merged = records
                }
            } catch {
                firstError = firstError ?? error
                failures.append(Diagnostic(.error, "\(name): \(error.message)"))
            }
        }
        guard let merged else { throw firstError ?? PowerLogError(.noInput, "no PowerLog file could be read") }
        return PowerLogReadResult(
            report: PowerLogAnalysis.report(from: merged, options: options),
            diagnostics: merged.diagnostics + failures
        )
    }

    /// True when `prefix` (the first bytes of a file) is gzip whose content starts as an SQLite database.
    public static func isCompressedSQLite(prefix: [UInt8]) -> Bool {
        guard prefix.count > 2, prefix[0] == 0x1F, prefix[1] == 0x8B else { return false }
        guard let inflated = ContentSniffer.inflatedPrefix(of: prefix, count: 64) else { return false }
        return ContentSniffer.format(of: inflated) == .sqlite
    }

    // MARK: - One file

    /// True when the file at `path` is a tar archive, plain or gzip-compressed (a sysdiagnose `.tar.gz`).
    public static func isArchive(_ path: String) -> Bool {
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
    private func extractPowerLogs(fromArchive archive: String, into folder: ScratchFolder, first: Int)
        throws(PowerLogError) -> ([(path: String, name: String)], [Diagnostic])
    {
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
                    members.append((target, archive + "!/" + entry.path))
                } else if isSibling, let owner = targets[String(entry.path.dropLast(4))] {
                    // Tar lists `x.PLSQL` before `x.PLSQL-shm` and `x.PLSQL-wal`; a sibling without its database is
                    // of no use.
                    target = owner + String(name.suffix(4))
                } else {
                    return
                }
                if entry.skippedForSize {
                    failure = PowerLogError(.unreadable, "\(entry.path) is larger than the archive reader's limit")
                } else if !FileManager.default.createFile(atPath: target, contents: Data(entry.data)) {
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

    private func records(path: String, displayName: String? = nil) throws(PowerLogError) -> PowerLogRecords {
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
            let limit = ExpansionLimit(maxBytes: options.maxDecompressedBytes)
            let compressed = Int(clamping: Self.fileSize(path) ?? 0)
            do {
                let truncated = try Inflate.decompressFile(
                    at: path,
                    to: openPath,
                    maxOutputBytes: limit.bytes(forCompressed: compressed)
                )
                if truncated {
                    diagnostics.append(
                        Diagnostic(.warning, "\(shown): the gzip stream is cut off; the database may be incomplete")
                    )
                }
            } catch {
                let reason = error.code == .tooLarge ? limit.describe(compressed: compressed) : error.message
                throw PowerLogError(.decompression, "cannot decompress: \(reason)", at: error.location)
            }
            guard ContentSniffer.format(of: try Self.head(of: openPath)) == .sqlite else {
                throw PowerLogError(.notSQLite, "the gzip stream does not hold an SQLite database")
            }
        default:
            throw PowerLogError(.notSQLite, "not an SQLite database (content is \(format.rawValue))")
        }
        let database: PowerLogDatabase
        do {
            database = try PowerLogDatabase(path: openPath)
        } catch {
            // A WAL-mode database in a read-only folder cannot be opened in place: SQLite needs its -shm file.
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
        var extractor = PowerLogExtractor(database: database, path: shown, options: options)
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

/// A private temporary folder (mode 0700) for decompressed and copied databases, removed with all its content.
private struct ScratchFolder {
    let path: String

    init(in base: String?) throws(PowerLogError) {
        let root = base ?? ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        var template =
            Array((root.hasSuffix("/") ? root : root + "/").utf8CString.dropLast())
            + Array(
                "apm-inspect-powerlog.XXXXXX".utf8CString
            )
        let created = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        guard let created else {
            throw PowerLogError(.unreadable, "cannot create a temporary folder in \(root)")
        }
        path = created
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

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// `read(2)`, named apart from ``PowerLogReader/read(path:)``.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
