import APMInspectCore
import Foundation
import FuzzProperties
import FuzzPropertiesPowerLog
import FuzzReplaySupport
import PowerLogReading
import Testing

/// Replays, without sanitizers, every database the PowerLog fuzz target crashed on (`Fuzz/FailCases/FuzzPowerLog/`)
/// and its seeds, through the check `Fuzz/Sources/FuzzPowerLog` runs (``FuzzChecks/powerLog(_:in:)``).
@Suite struct FuzzFailCaseTests {
    @Test func reader() throws {
        let inputs = try FuzzReplayInputs.load("FuzzPowerLog", corpus: ["powerlog": ".PLSQL", "powerlog": ".PLSQL.gz"])
        let folder = try TemporaryFiles.makeFolder(prefix: "fuzz-replay")
        defer { TemporaryFiles.remove(folder) }
        for (name, bytes) in inputs {
            FuzzReplayInputs.expect(FuzzChecks.powerLog(bytes, in: folder), name)
        }
        // The corpus databases are read, so the check is not passing on refusals alone.
        let reader = PowerLogReader()
        let corpus = inputs.filter { $0.0.hasSuffix(".PLSQL") }
        #expect(!corpus.isEmpty)
        for (name, bytes) in corpus {
            let path = folder + "/corpus.PLSQL"
            try TemporaryFiles.write(bytes, toNewFile: path)
            defer { TemporaryFiles.removeFile(path) }
            #expect((try? reader.read(path: path)) != nil, "\(name)")
        }
    }
}
