import APMInspectCore
import PowerLogReading

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileInspector {
    /// Inspects a regular file whose first bytes are an SQLite (or gzip'd SQLite) PowerLog without reading the rest
    /// into memory; nil for anything else, which the caller reads whole as before.
    func inspectDatabaseInPlace(path: String) -> Inspection? {
        guard FileReading.isRegularFile(atPath: path), let head = Self.head(of: path) else { return nil }
        let isDatabase: Bool
        switch ContentSniffer.format(of: head) {
        case .sqlite: isDatabase = true
        case .gzip: isDatabase = PowerLogReader.isCompressedSQLite(prefix: head)
        default: isDatabase = false
        }
        guard isDatabase else { return nil }
        return inspectPowerLog(path: path, bytes: head)
    }

    /// The first 8 KiB of a file (what the sniffers look at); nil when it cannot be read.
    private static func head(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let size = 8192
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            while initialized < size {
                let got = read(fd, base + initialized, size - initialized)
                if got < 0, errno == EINTR { continue }
                if got < 0 { failed = true }
                if got <= 0 { return }
                initialized += got
            }
        }
        return failed ? nil : bytes
    }

    /// Reads an SQLite (or gzip'd SQLite) file as a PowerLog database; nil when it holds no PowerLog table, so the
    /// caller can describe it as an unknown database instead.
    ///
    /// A regular file is opened by SQLite in place (immutable); anything else (a FIFO, a device, an archive
    /// member's virtual path) cannot be opened again, so the `bytes` already read go through a private copy.
    func inspectPowerLog(path: String, bytes: [UInt8]) -> Inspection? {
        do {
            let reader = PowerLogReader()
            // Text output folds the rows into bounded aggregates (`httpSummaryOnly` says the output is text).
            let result: PowerLogReadResult
            switch (FileReading.isRegularFile(atPath: path), httpSummaryOnly) {
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
            return Inspection(
                file: path,
                kind: .powerLog,
                diagnostics: [],
                report: nil,
                failure: Inspection.Failure(code: error.code.rawValue, message: error.message, location: error.location)
            )
        }
    }
}
