import APMInspectCore
import ByteAccess

/// Where streamed output goes: standard output and standard error for the executable, a collector for a test.
///
/// A library never prints (design.md), yet some documents are too large to return whole (the JSON of a capture runs
/// to hundreds of megabytes) and must be written as they are encoded: the caller hands in this sink instead. The
/// executable's sink (`OutputSink.console`) also keeps its checks on failed writes and its escaping of error text.
package struct OutputSink: Sendable {
    private let writeBytes: @Sendable (UnsafeBufferPointer<UInt8>) -> Void
    private let writeError: @Sendable (String) -> Void
    private let isStopped: @Sendable () -> Bool

    /// - Parameters:
    ///   - bytes: receives output bytes, in order; the buffer is valid only during the call.
    ///   - error: receives one message line for standard error, unescaped and without its newline.
    ///   - stopped: true once the output is gone (a reader that went away, a full disk): writing on is wasted work.
    package init(
        bytes: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void,
        error: @escaping @Sendable (String) -> Void,
        stopped: @escaping @Sendable () -> Bool = { false }
    ) {
        writeBytes = bytes
        writeError = error
        isStopped = stopped
    }

    /// True once the output is gone: a long document stops being built.
    package var stopped: Bool { isStopped() }

    /// Writes `text` to the output as is.
    package func out(_ text: String) {
        var text = text
        text.withUTF8 { writeBytes($0) }
    }

    /// Writes `bytes` to the output as is.
    package func out(bytes: UnsafeBufferPointer<UInt8>) {
        writeBytes(bytes)
    }

    /// Writes `bytes` to the output as is: the JSON writer's buffers, handed to `write(2)` here.
    package func out(bytes: BorrowedBytes) {
        writeBytes(bytes.unsafeBytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Writes a text view: report content escaped for a terminal, the view's line breaks and tabs kept.
    package func text(_ text: String) {
        out(TerminalText.escapedKeepingLayout(text))
    }

    /// Writes a text view as ``text(_:)`` does, its lines fitted in the terminal's width (``LineFitting``) when
    /// the command fits its views.
    package func fittedText(_ text: String) {
        out(LineFitting.fitted(TerminalText.escapedKeepingLayout(text), width: TableWidth.shared.viewLimit))
    }

    /// Writes a styled text view as ``text(_:color:)`` does, its lines fitted as ``fittedText(_:)`` fits them.
    package func fittedText(_ view: StyledText, color: Bool) {
        out(LineFitting.fitted(view.terminalText(color: color), width: TableWidth.shared.viewLimit))
    }

    /// Writes a text view as ``text(_:)`` does; with `color`, its styled spans in SGR codes added after escaping.
    package func text(_ view: StyledText, color: Bool) {
        out(view.terminalText(color: color))
    }

    /// Reports one line for standard error.
    package func error(_ line: String) {
        writeError(line)
    }
}
