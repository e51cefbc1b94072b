#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads whole files with POSIX calls straight into a byte array (no `Data` copy).
public enum FileReading {
    /// The contents of the file at `path`.
    ///
    /// - Throws: ``InputError`` with code `unreadable` when the file cannot be opened or read, `tooLarge` when it
    ///   exceeds `maxBytes`.
    public static func contents(atPath path: String, maxBytes: Int = 1 << 30) throws(InputError) -> [UInt8] {
        try contents(opened: open(path, O_RDONLY), maxBytes: maxBytes)
    }

    /// The same for a path kept as bytes, so a name that is not UTF-8 is read too.
    public static func contents(at path: RawPath, maxBytes: Int = 1 << 30) throws(InputError) -> [UInt8] {
        try contents(opened: path.withCString { open($0, O_RDONLY) }, maxBytes: maxBytes)
    }

    /// Reads and closes `fd`, the result of `open` (negative: `errno` says why).
    private static func contents(opened fd: Int32, maxBytes: Int) throws(InputError) -> [UInt8] {
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
        var chunkSize = info.st_size > 0 ? Int(info.st_size) + 1 : 64 * 1024
        // A regular file that gave exactly the size fstat reported is taken as complete: the read that would
        // confirm the end costs a system call per file, a tenth of reading a small report. Files that report a
        // size they do not have (procfs, sysfs) still read to the end.
        let statedSize = (info.st_mode & S_IFMT) == S_IFREG && info.st_size > 0 ? Int(info.st_size) : -1
        var failure: Int32 = 0
        var result = [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, initialized in
            initialized = 0
            guard let base = buffer.baseAddress else { return }
            while initialized < chunkSize {
                let n = read(fd, base + initialized, chunkSize - initialized)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if n == 0 { break }
                initialized += n
                if initialized == statedSize { break }
            }
        }
        if failure != 0 { throw InputError(.unreadable, "read failed: \(String(cString: strerror(failure)))") }
        if result.count > maxBytes { throw InputError(.tooLarge, "file exceeds the limit of \(maxBytes) bytes") }
        if result.count < chunkSize { return result }
        chunkSize = max(chunkSize, 64 * 1024)
        while true {
            var failure: Int32 = 0
            let before = result.count
            let got = try readChunk(fd, into: &result, count: chunkSize, failure: &failure)
            if got < 0 { throw InputError(.unreadable, "read failed: \(String(cString: strerror(failure)))") }
            if result.count > maxBytes {
                throw InputError(.tooLarge, "file exceeds the limit of \(maxBytes) bytes")
            }
            if result.count - before < chunkSize { return result }
            chunkSize = max(chunkSize, result.count)
        }
    }

    private static func readChunk(
        _ fd: Int32,
        into result: inout [UInt8],
        count: Int,
        failure: inout Int32
    ) throws(InputError) -> Int {
        let start = result.count
        result.append(contentsOf: repeatElement(0, count: count))
        var total = 0
        let status = result.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            while total < count {
                let n = read(fd, base + start + total, count - total)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return -1
                }
                if n == 0 { break }
                total += n
            }
            return total
        }
        result.removeLast(count - total)
        return status
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
