#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes to standard output and standard error without buffering surprises.
enum Console {
    /// Writes `text` to standard output as is.
    static func out(_ text: String) {
        var text = text
        text.withUTF8 { buffer in writeAll(1, buffer) }
    }

    /// Writes `bytes` to standard output as is.
    static func out(bytes: UnsafeBufferPointer<UInt8>) {
        writeAll(1, bytes)
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        var line = text + "\n"
        line.withUTF8 { buffer in writeAll(2, buffer) }
    }

    /// Writes `text` to standard error as is (for progress redraws).
    static func errorRaw(_ text: String) {
        var text = text
        text.withUTF8 { buffer in writeAll(2, buffer) }
    }

    /// True when standard error is a terminal (progress bars go there).
    static var stderrIsTerminal: Bool { isatty(2) != 0 }

    /// True when standard output is a terminal.
    static var stdoutIsTerminal: Bool { isatty(1) != 0 }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let n = write(fd, base + offset, buffer.count - offset)
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                return
            }
            offset += n
        }
    }
}
