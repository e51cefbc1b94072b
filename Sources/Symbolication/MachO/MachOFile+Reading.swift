import ByteAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension MachOFile {
    /// Reads the binary, or the DWARF file of a `.dSYM` bundle (in `Contents/Resources/DWARF/`), at `path`.
    ///
    /// The file is only read, never written or locked.
    package init(path: String) throws(SymbolicationError) {
        self = try MachOFile(bytes: try Self.readFile(path))
    }

    /// The whole content of a regular file no larger than ``MachOLimits/maxFileSize``.
    static func readFile(_ path: String) throws(SymbolicationError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw SymbolicationError(.unreadable, "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw SymbolicationError(.unreadable, "cannot stat \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw SymbolicationError(.unreadable, "\(path) is not a regular file")
        }
        guard status.st_size >= 0, status.st_size <= MachOLimits.maxFileSize else {
            throw SymbolicationError(
                .limitExceeded,
                "\(path) is \(status.st_size) bytes, more than the \(MachOLimits.maxFileSize) read into memory"
            )
        }
        let expected = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: expected)
        var filled = 0
        while filled < expected {
            let got = bytes.fillBytes(at: filled, count: expected - filled) { read(fd, $0, $1) }
            if got < 0 {
                if errno == EINTR { continue }
                throw SymbolicationError(.unreadable, "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            filled += got
        }
        // A file that shrank while being read is read as far as it went.
        if filled < expected { bytes.removeSubrange(filled...) }
        return bytes
    }
}
