import ReportRendering
import ReportSources

/// A command's standard output and standard error kept in memory for a tool result, up to a size.
///
/// The commands write to an ``OutputSink``; the server's stdout is the protocol channel, so nothing may reach it
/// but whole messages. Past `limit` bytes the output is dropped and the sink says it stopped, which ends the long
/// runs (`inspect` over a folder) early instead of building a result no client would take.
package final class CappedOutput: @unchecked Sendable {
    package let limit: Int
    private let lock = NSLockShim()
    private var bytes: [UInt8] = []
    private var errorLines: [String] = []
    private var errorBytes = 0
    private var overflowed = false

    package init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The sink the runs write to.
    package var sink: OutputSink {
        OutputSink(
            bytes: { [self] buffer in append(buffer) },
            error: { [self] line in appendError(line) },
            stopped: { [self] in lock.withLock { overflowed } }
        )
    }

    /// True once the output passed the limit.
    package var passedLimit: Bool { lock.withLock { overflowed } }

    /// The output as text (the commands write UTF-8; anything else is replaced).
    package var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }

    /// The standard error lines, in order (those past the limit dropped, as the output is).
    package var errors: [String] { lock.withLock { errorLines } }

    private func append(_ buffer: some Collection<UInt8>) {
        lock.withLock {
            guard !overflowed else { return }
            guard buffer.count <= limit - bytes.count - errorBytes else {
                overflowed = true
                bytes = []
                return
            }
            bytes.append(contentsOf: buffer)
        }
    }

    private func appendError(_ line: String) {
        lock.withLock {
            guard !overflowed else { return }
            let size = line.utf8.count + 1
            guard size <= limit - bytes.count - errorBytes else {
                overflowed = true
                bytes = []
                return
            }
            errorBytes += size
            errorLines.append(line)
        }
    }
}
