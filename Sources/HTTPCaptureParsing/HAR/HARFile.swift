import APMInspectCore
import ByteAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file open for positioned reads, which a HAR is read from a window at a time (``HARWindowedFile``).
///
/// Positioned reads share no file offset, so the entries rebuilt on another thread (``HARReplay``) read the same
/// descriptor safely.
final class HARFile: Sendable {
    private let descriptor: Int32
    /// The size `fstat` gave when the file was opened.
    let size: Int

    /// The file at `path`, or nil when it cannot be opened or is not a regular file (standard input, a FIFO or a
    /// device can be read only once, so they are read whole).
    init?(path: RawPath) {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size >= 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
        size = Int(info.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Up to `count` bytes from `offset`: fewer at the end of the file or when a read fails.
    func read(at offset: Int, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        read(at: offset, count: count, into: &bytes)
        return bytes
    }

    /// ``read(at:count:)`` into `bytes`, whose storage is reused: a window read again and again costs no fresh
    /// pages (a new 4 MiB array per window was mapped and faulted in each time, a third more system time).
    func read(at offset: Int, count: Int, into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        let wanted = max(0, min(count, size - offset))
        guard offset >= 0, wanted > 0 else { return }
        bytes.append(contentsOf: repeatElement(0, count: wanted))
        var got = 0
        while got < wanted {
            let fd = descriptor
            let from = off_t(offset + got)
            let n = bytes.fillBytes(at: got, count: wanted - got) { pread(fd, $0, $1, from) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            got += n
        }
        if got < wanted { bytes.removeSubrange(got...) }
    }
}
