import APMInspectCore
import Foundation
import FuzzReplaySupport
import PowerLogReading
import Testing

/// Replays, without sanitizers, every database the PowerLog fuzz target crashed on (`Fuzz/FailCases/FuzzPowerLog/`)
/// and its seeds, through the same calls and properties as `Fuzz/Sources/FuzzPowerLog`: each input is written to a
/// temporary file, read twice, and its report encoded.
@Suite struct FuzzFailCaseTests {
    @Test func reader() throws {
        let inputs = try FuzzReplayInputs.load("FuzzPowerLog", corpus: ["powerlog": ".PLSQL", "powerlog": ".PLSQL.gz"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = PowerLogReader(
            options: PowerLogReadOptions(
                maxRowsPerTable: 20_000,
                maxDecompressedBytes: 32 << 20,
                temporaryDirectory: folder.path
            )
        )
        var read = 0
        for (name, bytes) in inputs {
            let path = folder.appendingPathComponent("input.PLSQL").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let first = try? reader.read(path: path)
            #expect(first == (try? reader.read(path: path)), "\(name)")
            if let first {
                read += 1
                FuzzReplayInputs.expectEncodes(first.report, name)
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        #expect(read >= 1, "the corpus databases read")
    }
}
