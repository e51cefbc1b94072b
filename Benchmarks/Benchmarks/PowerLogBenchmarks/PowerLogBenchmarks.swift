import Benchmark
import Foundation
import PowerLogReading

/// The databases of the PowerLog rows of docs/performance.md: the real iOS 15 log (shared corpus, not in the
/// repository) and the generated 1,000,000-row one (run.sh makes it with `scripts/generate_powerlog_rows.py`).
private enum Inputs {
    static let real =
        ProcessInfo.processInfo.environment["BENCH_POWERLOG_DB"]
        ?? "../../shared/corpus/powerlog/powerlog_2021-12-16_05-54_84E2141B.PLSQL"
    static let rows =
        ProcessInfo.processInfo.environment["BENCH_POWERLOG_ROWS"]
        ?? "data/powerlog-rows-1000000.PLSQL"
}

let benchmarks: @Sendable () -> Void = {
    let reader = PowerLogReader()

    // Opening (schema and census) and reading every table: what `energy --format json` and `inspect` do.
    if FileManager.default.fileExists(atPath: Inputs.real) {
        Benchmark(
            "PowerLogReader.read.realIOS15",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
                maxDuration: .seconds(5)
            )
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try? reader.read(path: Inputs.real))
            }
        }
    }

    if FileManager.default.fileExists(atPath: Inputs.rows) {
        Benchmark(
            "PowerLogReader.read.rows1000000",
            configuration: .init(
                metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
                maxDuration: .seconds(10),
                maxIterations: 3
            )
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try? reader.read(path: Inputs.rows))
            }
        }
    }
}
