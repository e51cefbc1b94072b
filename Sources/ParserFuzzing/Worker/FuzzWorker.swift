import Foundation
import ReportInspection

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The hidden `fuzz --worker` process: reads inputs from standard input, answers with a verdict for each on
/// standard output, and dies (as the parser would) when one traps, hangs or runs out of memory.
package enum FuzzWorker {
    /// Serves inputs until standard input ends.
    ///
    /// - Parameters:
    ///   - temporaryFolder: the supervisor's private folder, for inputs that must be files.
    ///   - memoryLimitMB: the address-space limit this process sets on itself; 0 for none.
    ///   - selfTestMode: the CI hook's mode (``SelfTestHook``), read from the environment by the executable.
    ///   - renderText: the executable's text rendering of a report, run on every input: a trap in it is a finding.
    /// - Returns: the process's exit status.
    package static func run(
        temporaryFolder: String,
        memoryLimitMB: Int,
        selfTestMode: String?,
        renderText: @escaping (Inspection) -> Void
    ) -> Int32 {
        // Ctrl-C at the terminal reaches the whole process group: the supervisor decides when workers stop.
        signal(SIGINT, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        if memoryLimitMB > 0 {
            let bytes = rlim_t(memoryLimitMB) * 1_048_576
            var limit = rlimit(rlim_cur: bytes, rlim_max: bytes)
            #if canImport(Glibc)
                setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
            #else
                setrlimit(RLIMIT_AS, &limit)
            #endif
        }
        var oracle = FuzzOracle(temporaryFolder: temporaryFolder, selfTestMode: selfTestMode, renderText: renderText)
        let encoder = JSONEncoder()
        while let input = FuzzWire.readFrame(0) {
            let verdict = oracle.check(input)
            let payload = (try? encoder.encode(verdict)).map { [UInt8]($0) } ?? Array("{\"kind\":\"unknown\"}".utf8)
            guard FuzzWire.writeFrame(1, payload) else { break }
        }
        return 0
    }
}
