import Foundation

/// TEST HOOK, for CI only (`.ci/steps/fuzz-command.sh`): proves the supervisor catches each kind of failure.
///
/// When the worker runs with `APM_INSPECT_FUZZ_SELFTEST=trap|hang|oom` in its environment, an input containing
/// ``marker`` makes it trap, loop forever, or allocate until the memory limit stops it. Without the variable the
/// hook does nothing. It is not a user feature and is not shown in `--help`.
package enum SelfTestHook {
    static let marker = Array("APM-INSPECT-FUZZ-SELFTEST".utf8)
    /// The environment variable that holds the mode; the executable reads it, as libraries read no environment.
    package static let variable = "APM_INSPECT_FUZZ_SELFTEST"

    /// Keeps the allocations of the `oom` mode alive so they cannot be optimised away.
    nonisolated(unsafe) private static var hoard: [[UInt8]] = []

    static func run(on bytes: [UInt8], mode: String?) {
        guard let mode, contains(bytes, marker) else { return }
        switch mode {
        case "trap":
            fatalError("fuzz self-test trap")
        case "hang":
            while true { usleep(50_000) }
        case "oom":
            // Filled with ones so the pages are real; the allocation past the limit fails in the runtime.
            while true {
                hoard.append([UInt8](repeating: 1, count: 64 << 20))
            }
        default:
            return
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}
