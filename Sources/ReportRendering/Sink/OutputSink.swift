/// Where streamed output goes: standard output and standard error for the executable, a collector for a test.
///
/// A library never prints (design.md), yet some documents are too large to return whole (the JSON of a capture runs
/// to hundreds of megabytes) and must be written as they are encoded: the caller hands in this sink instead. The
/// executable's sink (`OutputSink.console`) also keeps its checks on failed writes and its escaping of error text.
package struct OutputSink: Sendable {
    private let writeBytes: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
    private let writeError: @Sendable (String) -> Void

    /// - Parameters:
    ///   - bytes: receives output bytes, in order; the buffer is valid only during the call.
    ///   - error: receives one message line for standard error, unescaped and without its newline.
    package init(
        bytes: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void,
        error: @escaping @Sendable (String) -> Void
    ) {
        writeBytes = bytes
        writeError = error
    }

    /// Writes `text` to the output as is.
    package func out(_ text: String) {
        var text = text
        text.withUTF8 { writeBytes($0) }
    }

    /// Writes `bytes` to the output as is.
    package func out(bytes: UnsafeBufferPointer<UInt8>) {
        writeBytes(bytes)
    }

    /// Reports one line for standard error.
    package func error(_ line: String) {
        writeError(line)
    }
}
