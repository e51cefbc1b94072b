import Foundation

/// Serialises lines written by worker threads, so NDJSON lines never interleave.
package final class OutputGate: @unchecked Sendable {
    private let lock = NSLock()
    private var wroteFirst = false
    private var failures = 0

    package init() {}

    /// True when an envelope had to be replaced by its error envelope (exit status 1).
    package var hadFailures: Bool {
        lock.lock()
        defer { lock.unlock() }
        return failures > 0
    }

    package func recordFailure() {
        lock.lock()
        defer { lock.unlock() }
        failures += 1
    }

    /// Runs `body` alone on the output, told whether a line was written before; a line is written by then.
    package func exclusive(_ body: (_ wroteBefore: Bool) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(wroteFirst)
        wroteFirst = true
    }
}
