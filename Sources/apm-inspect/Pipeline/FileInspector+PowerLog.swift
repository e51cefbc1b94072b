import APMInspectCore
import PowerLogReading

extension FileInspector {
    /// Reads an SQLite (or gzip'd SQLite) file as a PowerLog database; nil when it holds no PowerLog table, so the
    /// caller can describe it as an unknown database instead.
    func inspectPowerLog(path: String) -> Inspection? {
        do {
            let result = try PowerLogReader().read(path: path)
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
