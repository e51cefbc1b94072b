import APMInspectCore
import FuzzProperties
import PowerLogReading

// A module of its own: PowerLogReading brings GRDB, whose operator overloads, once visible to a test target, make
// long string concatenations there too slow to type-check.

extension FuzzChecks {
    /// `FuzzPowerLog`: the input, written to `folder/input.PLSQL`, reads twice alike and prints as strict JSON.
    ///
    /// SQLite reads files, so the bytes go to one first, opened as the command opens a database; the file and
    /// SQLite's companions are removed.
    public static func powerLog(_ bytes: [UInt8], in folder: String) -> FuzzFindings {
        var found = FuzzFindings()
        let path = folder + "/input.PLSQL"
        for leftover in ["", "-wal", "-shm", "-journal"] { TemporaryFiles.removeFile(path + leftover) }
        defer { for leftover in ["", "-wal", "-shm", "-journal"] { TemporaryFiles.removeFile(path + leftover) } }
        guard (try? TemporaryFiles.write(bytes, toNewFile: path)) != nil else { return found }
        let reader = PowerLogReader(
            options: PowerLogReadOptions(
                maxRowsPerTable: 20_000,
                maxDecompressedBytes: 32 << 20,
                temporaryDirectory: folder
            )
        )
        let first = try? reader.read(path: path)
        let second = try? reader.read(path: path)
        found.require(first == second, "two reads of the same database differ")
        if let first {
            found.requireEncodes(first.report, "the PowerLog report")
            found.requireEncodes(first.diagnostics, "the diagnostics")
        }
        return found
    }
}
