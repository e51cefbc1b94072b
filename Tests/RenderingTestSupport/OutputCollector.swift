import Foundation
import ReportRendering

/// An ``OutputSink`` that keeps what a streaming renderer writes, for the tests to compare.
package final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var errorLines: [String] = []

    package init() {}

    package var sink: OutputSink {
        OutputSink(
            bytes: { buffer in self.locked { self.bytes += buffer } },
            error: { line in self.locked { self.errorLines.append(line) } }
        )
    }

    package var output: String { locked { String(decoding: bytes, as: UTF8.self) } }
    package var errors: [String] { locked { errorLines } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
