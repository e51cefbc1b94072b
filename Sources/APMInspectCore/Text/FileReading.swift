#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads whole files with POSIX calls straight into a byte array (no `Data` copy).
@usableFromInline
package enum FileReading {
    /// The contents of the file at `path`.
    ///
    /// - Throws: ``InputError`` with code `unreadable` when the file cannot be opened or read, `tooLarge` when it
    ///   exceeds `maxBytes`.
    @usableFromInline
    package static func contents(atPath path: String, maxBytes: Int = 1 << 30) throws(InputError) -> [UInt8] {
        try contents(opened: path.withCString { openForReading($0) }.get(), maxBytes: maxBytes)
    }

    /// The same for a path kept as bytes, so a name that is not UTF-8 is read too.
    @usableFromInline
    package static func contents(at path: RawPath, maxBytes: Int = 1 << 30) throws(InputError) -> [UInt8] {
        try contents(opened: path.withCString { openForReading($0) }.get(), maxBytes: maxBytes)
    }

    /// What ``contents(atPath:maxBytes:stoppingAfter:when:)`` read: the whole file, or only its first bytes when they
    /// said the rest is not wanted in memory (an archive to stream, a database to open where it lies).
    @usableFromInline
    package enum PrefixedRead: Sendable {
        case whole([UInt8])
        case stopped(prefix: [UInt8])
    }

    /// The contents of the regular file at `path`, unless its first `prefixBytes` (all of it, when it is shorter)
    /// make `stop` true: then only those are returned, for the caller to read the file its own way.
    ///
    /// One open and one read for a small file, where sniffing first and reading after cost a second open and read
    /// per file. Anything but a regular file (a FIFO can be read once only) is read whole and never stopped.
    @usableFromInline
    package static func contents(
        atPath path: String,
        maxBytes: Int = 1 << 30,
        stoppingAfter prefixBytes: Int,
        when stop: ([UInt8]) -> Bool
    ) throws(InputError) -> PrefixedRead {
        try contents(at: RawPath(path), maxBytes: maxBytes, stoppingAfter: prefixBytes, when: stop)
    }

    /// The same for a path kept as bytes, so a name that is not UTF-8 is read too.
    @usableFromInline
    package static func contents(
        at path: RawPath,
        maxBytes: Int = 1 << 30,
        stoppingAfter prefixBytes: Int,
        when stop: ([UInt8]) -> Bool
    ) throws(InputError) -> PrefixedRead {
        let fd = try path.withCString { openForReading($0) }.get()
        return try contents(opened: fd, maxBytes: maxBytes, stoppingAfter: prefixBytes, when: stop)
    }

    /// How long a FIFO given as input may wait for a writer before it is an error.
    @usableFromInline
    package static let fifoWriterWaitSeconds: Int32 = 10

    /// Opens `path` for reading; a FIFO without a writer is an error after ``fifoWriterWaitSeconds``, not a hang,
    /// and a device is refused.
    ///
    /// A plain `open` of a FIFO blocks until some process opens it for writing, which may be never (a FIFO left
    /// in a folder, a typo): it is opened without blocking, then waited on for data or a writer's end, with a
    /// bound. Once something arrives the descriptor is made blocking again and read like any pipe.
    private static func openForReading(_ path: UnsafePointer<CChar>) -> Result<Int32, InputError> {
        var info = stat()
        let type = stat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
        // A device is never a report: `/dev/zero` or `/dev/urandom` would be read to the limit for nothing.
        if type == S_IFCHR || type == S_IFBLK {
            let what = type == S_IFCHR ? "a character device" : "a block device"
            return .failure(InputError(.unreadable, "\(what), not a file; nothing was read"))
        }
        guard type == S_IFIFO else { return .success(open(path, O_RDONLY | O_CLOEXEC)) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .success(fd) }
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var ready: Int32
        repeat { ready = poll(&waiting, 1, fifoWriterWaitSeconds * 1000) } while ready < 0 && errno == EINTR
        guard ready > 0 else {
            close(fd)
            return .failure(
                InputError(
                    .unreadable,
                    "a FIFO (named pipe) that no writer opened within \(fifoWriterWaitSeconds) s; nothing was read"
                )
            )
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return .success(fd)
    }

    private static func contents(opened fd: Int32, maxBytes: Int) throws(InputError) -> [UInt8] {
        switch try contents(opened: fd, maxBytes: maxBytes, stoppingAfter: 0, when: { _ in false }) {
        case .whole(let bytes), .stopped(let bytes): bytes
        }
    }

    /// Reads and closes `fd`, the result of `open` (negative: `errno` says why); a regular file's
    /// first `prefixBytes` are shown to it first (see ``contents(atPath:maxBytes:stoppingAfter:when:)``); with
    /// `prefixBytes` 0, never.
    private static func contents(
        opened fd: Int32,
        maxBytes: Int,
        stoppingAfter prefixBytes: Int,
        when stop: ([UInt8]) -> Bool
    ) throws(InputError) -> PrefixedRead {
        guard fd >= 0 else { throw InputError(.unreadable, "cannot open: \(errnoText())") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw InputError(.unreadable, "cannot stat: \(errnoText())") }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw InputError(.unreadable, "is a directory") }
        guard Int(info.st_size) <= maxBytes else {
            throw InputError(.tooLarge, "file of \(info.st_size) bytes exceeds the limit of \(maxBytes) bytes")
        }
        // Sized from fstat, but read until end of file: pipes and growing files report no useful size. The first
        // read goes into uninitialised storage: zero-filling a buffer per file cost as much as parsing a small one.
        let cap = maxBytes >= Int.max ? Int.max : max(0, maxBytes) + 1
        var chunkSize = info.st_size > 0 ? min(Int(info.st_size) + 1, cap) : min(64 * 1024, cap)
        // A regular file that gave exactly the size fstat reported is taken as complete: the read that would
        // confirm the end costs a system call per file, a tenth of reading a small report. Files that report a
        // size they do not have (procfs, sysfs) still read to the end.
        let isRegular = (info.st_mode & S_IFMT) == S_IFREG
        let statedSize = isRegular && info.st_size > 0 ? Int(info.st_size) : -1
        // A regular file longer than the prefix is shown to `stop` once its prefix is in; a shorter one, whole.
        var checkAt = isRegular && statedSize > prefixBytes && prefixBytes > 0 ? prefixBytes : -1
        var stopped = false
        var failure: Int32 = 0
        var result = [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            while initialized < chunkSize {
                let end = checkAt > initialized ? min(checkAt, chunkSize) : chunkSize
                let n = read(fd, base + initialized, end - initialized)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if n == 0 { break }
                initialized += n
                if initialized == checkAt {
                    checkAt = -1
                    if stop(Array(UnsafeBufferPointer(start: base, count: initialized))) {
                        stopped = true
                        return
                    }
                }
                if initialized == statedSize { break }
            }
        }
        if failure != 0 { throw InputError(.unreadable, "read failed: \(String(cString: strerror(failure)))") }
        if stopped { return .stopped(prefix: result) }
        if result.count > maxBytes { throw tooLarge(maxBytes) }
        if result.count < chunkSize {
            if prefixBytes > 0, isRegular, checkAt < 0, statedSize <= prefixBytes, stop(result) {
                return .stopped(prefix: result)
            }
            return .whole(result)
        }
        // Pipes, character devices (`/dev/zero`) and files that grew: read on, but never more than one byte past
        // the limit, so an endless stream costs the limit and no more.
        chunkSize = max(chunkSize, 64 * 1024)
        while true {
            var failure: Int32 = 0
            let count = min(chunkSize, cap - result.count)
            // Grown here, never past the cap: left to itself the array doubles, and a stream one byte over 1 GiB
            // would cost 2 GiB.
            if result.capacity < result.count + count {
                result.reserveCapacity(min(cap, max(result.count + count, result.count * 2)))
            }
            let got = try readChunk(fd, into: &result, count: count, failure: &failure)
            if got < 0 { throw InputError(.unreadable, "read failed: \(String(cString: strerror(failure)))") }
            if result.count > maxBytes { throw tooLarge(maxBytes) }
            if got < count { return .whole(result) }
            chunkSize = max(chunkSize, result.count)
        }
    }

    /// True when `path` names a regular file (following symbolic links).
    ///
    /// False for FIFOs, devices, sockets, folders and paths that do not exist. Asked without opening the path:
    /// opening a FIFO blocks until a writer comes, and whatever the writer sends can be read only once.
    @usableFromInline
    package static func isRegularFile(atPath path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private static func tooLarge(_ maxBytes: Int) -> InputError {
        InputError(.tooLarge, "the input passes the read limit of \(maxBytes) bytes (reading stopped there)")
    }

    /// Reads up to `count` bytes onto the end of `result` through a reused 1 MiB buffer (appending a copy is a
    /// `memcpy`; zero-filling the array's new tail first cost a pass per byte).
    private static func readChunk(
        _ fd: Int32,
        into result: inout [UInt8],
        count: Int,
        failure: inout Int32
    ) throws(InputError) -> Int {
        let piece = min(count, 1 << 20)
        var buffer = [UInt8](repeating: 0, count: piece)
        var total = 0
        while total < count {
            let wanted = min(piece, count - total)
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, wanted) }
            if n < 0 {
                if errno == EINTR { continue }
                failure = errno
                return -1
            }
            if n == 0 { break }
            buffer.withUnsafeBufferPointer { result.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<n])) }
            total += n
        }
        return total
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
