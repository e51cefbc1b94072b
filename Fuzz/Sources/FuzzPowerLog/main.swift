import FuzzPropertiesPowerLog
import FuzzSupport
import Glibc

/// A PowerLog database: the input is written to a file (SQLite reads files) and opened as the command opens one.
///
/// The properties are ``FuzzChecks/powerLog(_:in:)``, which the replay tests run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPowerLog(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let folder = "/tmp/apm-inspect-fuzz-powerlog-\(getpid())"
    mkdir(folder, 0o700)
    fuzzRequire(FuzzChecks.powerLog(fuzzBytes(start, count), in: folder))
    rmdir(folder)  // succeeds only once the reader's own temporary files are gone too
    return 0
}
