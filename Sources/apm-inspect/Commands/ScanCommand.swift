import APMInspectCore
import ArgumentParser
import Foundation

/// `apm-inspect scan PATH...`: every report in folders and sysdiagnose archives, in parallel, streamed.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read every report in folders and archives (sysdiagnose .tar.gz, .tar) and summarise them.",
        discussion: """
            Sniffs every file (and every member of tar and tar.gz archives, without extracting them) and reads it \
            with the parser for its kind. --format ndjson streams one envelope per report as soon as it is read; \
            --format json prints {"files": [...envelopes], "inventory": {...}}; text prints the inventory: counts \
            by kind, crashes grouped by signature, watchdog kills, OOM kills with per-device memory limits, and \
            every file that could not be read.
            """
    )

    @Argument(help: "Files, folders or archives.", completion: .file())
    var paths: [String]

    @Option(name: .shortAndLong, help: "Output format: text, json or ndjson.")
    var format: OutputFormat = .text

    @Option(name: .shortAndLong, help: "Worker threads (default: all cores).")
    var jobs: Int = ProcessInfoShim.activeProcessorCount

    func validate() throws {
        if format == .csv || format == .markdown { throw ValidationError("scan prints text, json or ndjson") }
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let temporary = try TemporaryFolder()
        temporary.removeOnInterrupt()
        defer { temporary.remove() }
        let (files, walkFailures) = PathWalker.files(in: paths)
        for failure in walkFailures { Console.error("\(failure.path): error: \(failure.message)") }
        let scanner = Scanner(inspector: FileInspector(), temporary: temporary, format: format)
        if format == .json { Console.out("{\n\"files\": [\n") }
        let progress = ProgressBar(total: files.count, label: "scan")
        let results = ParallelMap.map(
            count: files.count,
            jobs: jobs,
            progress: { progress.advance() },
            transform: { index in scanner.scan(file: files[index]) }
        )
        progress.finish()
        var records: [ScanRecord] = []
        var findings: [String] = []
        for case let result? in results {
            records += result.records
            findings += result.findings
        }
        let inventory = ScanInventory(records: records, files: files.count, archiveFindings: findings)
        switch format {
        case .json:
            Console.out("\n],\n\"inventory\": " + (try JSONOutput.encode(inventory, pretty: true)) + "\n}\n")
        case .ndjson:
            Console.error(ScanRenderer.summaryLine(inventory))
        default:
            Console.out(ScanRenderer.render(inventory))
        }
        for item in inventory.unreadable { Console.error(item.reason) }
        if !walkFailures.isEmpty || !inventory.unreadable.isEmpty { throw ExitCode(1) }
    }
}

/// Reads one path of a scan: a report, or an archive of them; prints envelopes as they come when streaming.
struct Scanner: Sendable {
    struct Result: Sendable {
        var records: [ScanRecord]
        var findings: [String]
    }

    let inspector: FileInspector
    let temporary: TemporaryFolder
    let format: OutputFormat
    private let output = OutputGate()

    init(inspector: FileInspector, temporary: TemporaryFolder, format: OutputFormat) {
        self.inspector = inspector
        self.temporary = temporary
        self.format = format
    }

    func scan(file path: String) -> Result {
        // A FIFO or device is opened once only (by the inspector): sniffing it for an archive first would take
        // its content and leave the second open waiting for a writer that never comes.
        if FileReading.isRegularFile(atPath: path), Self.isArchive(path) {
            var records: [ScanRecord] = []
            let archive = ArchiveScanner(inspector: inspector, temporary: temporary)
            let diagnostics = archive.scan(archive: path) { inspection in
                emit(inspection)
                records.append(ScanRecord(inspection))
            }
            return Result(
                records: records,
                findings: diagnostics.map { "\(path): \($0.severity.rawValue): \($0.message)" }
            )
        }
        var inspection = inspector.inspect(path: path)
        // Files of an extracted sysdiagnose folder carry its facts too.
        if let folder = path.split(separator: "/").first(where: { $0.hasPrefix("sysdiagnose_") }) {
            inspection.source = SysdiagnoseFacts(name: String(folder))
        }
        emit(inspection)
        return Result(records: [ScanRecord(inspection)], findings: [])
    }

    private func emit(_ inspection: Inspection) {
        guard format == .json || format == .ndjson, let line = try? JSONOutput.encode(inspection, pretty: false) else {
            return
        }
        output.write(line, separator: format == .json ? ",\n" : "\n", first: format == .json ? "" : nil)
    }

    /// A tar, or a gzip whose content starts like a tar.
    static func isArchive(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let prefix = [UInt8]((try? handle.read(upToCount: 65_536)) ?? Data())
        if TarReader.isTar(prefix) { return true }
        guard prefix.count > 2, prefix[0] == 0x1F, prefix[1] == 0x8B else { return false }
        // A few compressed kilobytes are enough to see the first tar header (and cannot expand beyond a few MB).
        let inflated = (try? Inflate.decompress(Array(prefix.prefix(4096)), maxOutputBytes: 64 << 20))?.bytes ?? []
        return TarReader.isTar(Array(inflated.prefix(1024)))
    }
}

/// Serialises lines written by worker threads, so NDJSON lines never interleave.
final class OutputGate: @unchecked Sendable {
    private let lock = NSLock()
    private var wroteFirst = false

    /// Writes `line` with `separator` after it (NDJSON) or before every line but the first (a JSON array).
    func write(_ line: String, separator: String, first: String?) {
        lock.lock()
        defer { lock.unlock() }
        if first != nil {
            Console.out((wroteFirst ? separator : "") + line)
        } else {
            Console.out(line + separator)
        }
        wroteFirst = true
    }
}
