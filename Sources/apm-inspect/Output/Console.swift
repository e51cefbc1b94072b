import APMInspectCore
import ReportRendering
import ReportSources

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes to standard output and standard error without buffering surprises.
///
/// Every write is checked: the first failure (a full disk, a closed or unwritable descriptor) is kept, later
/// output is skipped, and ``APMInspect/main()`` turns it into an error message and exit status 1, so output that
/// was lost never passes for a success. Text that reaches standard error is escaped here (``TerminalText``), so
/// no caller can forget to.
enum Console {
    /// The first failed write to standard output: the errno it failed with.
    private static let outputFailure = WriteFailure()

    /// Writes `text` to standard output as is: JSON (already escaped for JSON) and our own fixed text.
    static func out(_ text: String) {
        var text = text
        text.withUTF8 { buffer in emit(1, buffer) }
    }

    /// Writes a text view to standard output: report content is escaped, the view's line breaks and tabs kept.
    static func text(_ text: String) {
        out(TerminalText.escapedKeepingLayout(text))
    }

    /// Writes a text view as ``text(_:)`` does; with `color`, its styled spans in SGR codes added after escaping.
    static func text(_ view: StyledText, color: Bool) {
        out(view.terminalText(color: color))
    }

    /// Writes `bytes` to standard output as is.
    static func out(bytes: UnsafeBufferPointer<UInt8>) {
        emit(1, bytes)
    }

    /// Writes `text`, escaped into one line, and a newline to standard error; its severity word in colour on a
    /// terminal (``ErrorColor``).
    static func error(_ text: String) {
        let escaped = TerminalText.escaped(text)
        var line = (ErrorColor.shared.isEnabled ? ErrorColor.colored(escaped) : escaped) + "\n"
        line.withUTF8 { buffer in _ = writeAll(2, buffer) }
    }

    /// Writes `text` to standard error as is (for progress redraws: our own escape sequences).
    static func errorRaw(_ text: String) {
        var text = text
        text.withUTF8 { buffer in _ = writeAll(2, buffer) }
    }

    /// True when standard error is a terminal (progress bars go there).
    static var stderrIsTerminal: Bool { isatty(2) != 0 }

    /// True when standard output is a terminal.
    static var stdoutIsTerminal: Bool { isatty(1) != 0 }

    /// True once a write to standard output failed: the rest of the output would be lost, so work can stop.
    static var outputFailed: Bool { outputFailure.errno != nil }

    /// True when standard output failed because its reader went away (EPIPE: `| head` read what it wanted).
    ///
    /// That is no error of the command: ``APMInspect/main()`` ends the run quietly, after cleanup.
    static var readerWentAway: Bool { outputFailure.errno == EPIPE }

    /// Why standard output could not be written, nil when every write succeeded.
    static var outputFailureMessage: String? {
        outputFailure.errno.map { "cannot write to standard output: \(describe(errno: $0))" }
    }

    /// The text of an errno value (`No space left on device`).
    static func describe(errno code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    private static func emit(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) {
        // After a failure the rest would be a truncated document anyway.
        guard outputFailure.errno == nil else { return }
        if let code = writeAll(fd, buffer) { outputFailure.record(code) }
    }

    /// Writes every byte; the errno of the failure, nil on success.
    private static func writeAll(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard let base = buffer.baseAddress else { return nil }
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, base + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return EIO }
            offset += n
        }
        return nil
    }
}

/// The first write failure, shared by worker threads that stream output.
final class WriteFailure: @unchecked Sendable {
    private let lock = NSLockShim()
    private var code: Int32?

    var errno: Int32? {
        lock.withLock { code }
    }

    func record(_ value: Int32) {
        lock.withLock { if code == nil { code = value } }
    }
}
