#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file the user named for output (`translate -o`, `energy --plot`), checking every step.
///
/// `String.write(toFile:atomically:)` reported success for `/dev/full` on Linux with nothing written; here a
/// short write, a failed `close` (where NFS and full disks report late) or an unopenable path is an error.
enum OutputFile {
    /// Writes `text` to `path` (created or truncated); nil on success, else why it failed.
    static func write(_ text: String, toPath path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return Console.describe(errno: errno) }
        var text = text
        var failure: Int32?
        text.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, base + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    failure = n < 0 ? errno : EIO
                    return
                }
                offset += n
            }
        }
        if close(fd) != 0, failure == nil { failure = errno }
        return failure.map { Console.describe(errno: $0) }
    }
}
