import APMInspectCore
import FuzzSupport
import Glibc
import PowerLogReading

/// A PowerLog database: the input is written to a file (SQLite reads files) and opened as the command opens one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPowerLog(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let folder = "/tmp/apm-inspect-fuzz-powerlog-\(getpid())"
    mkdir(folder, 0o700)
    let path = folder + "/input.PLSQL"
    let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard file >= 0 else { return 0 }
    var offset = 0
    while offset < count {
        let written = write(file, start + offset, count - offset)
        if written <= 0 { break }
        offset += written
    }
    close(file)
    defer {
        unlink(path)
        unlink(path + "-wal")
        unlink(path + "-shm")
        unlink(path + "-journal")
        rmdir(folder)  // succeeds only once the reader's own temporary files are gone too
    }
    let reader = PowerLogReader(
        options: PowerLogReadOptions(
            maxRowsPerTable: 20_000,
            maxDecompressedBytes: 32 << 20,
            temporaryDirectory: folder
        )
    )
    let first = try? reader.read(path: path)
    let second = try? reader.read(path: path)
    fuzzRequire(first == second, "two reads of the same database differ")
    if let first {
        fuzzCheckEncodes(first.report, "the PowerLog report")
        fuzzCheckEncodes(first.diagnostics, "the diagnostics")
    }
    return 0
}
