import APMInspectCore
import PowerLogReading

extension FileInspector {
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
