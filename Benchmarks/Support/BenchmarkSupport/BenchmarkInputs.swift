import APMInspectCore
import Foundation

/// The generated inputs of the benchmark suites, read once so the benchmarks run in memory.
public enum BenchmarkInputs {
    /// The folder named by `variable` in the environment, else `fallback` (relative to Benchmarks/).
    public static func folder(_ variable: String, default fallback: String) -> String {
        ProcessInfo.processInfo.environment[variable] ?? fallback
    }

    /// Every file of `folder`, in name order; stops with a hint when there is none (run.sh generates them).
    public static func files(in folder: String) -> [[UInt8]] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let files = names.sorted().compactMap { try? FileReading.contents(atPath: folder + "/" + $0) }
        precondition(!files.isEmpty, "no reports in \(folder): run Benchmarks/run.sh, which generates them")
        return files
    }
}
