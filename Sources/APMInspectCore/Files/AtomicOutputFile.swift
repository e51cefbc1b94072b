#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file the user named for output (`-o`, `--plot`) so that it never destroys evidence.
///
/// The text goes to a fresh temporary file in the target's own folder (`O_EXCL`, mode 0644 less the umask, or the
/// permission bits of the file it replaces), is written completely (short writes retried, `close` checked: NFS
/// and full disks report late), `fsync`ed, then renamed over the target. A failure at any step unlinks the
/// temporary file and leaves the old target as it was; a reader never sees half a file.
///
/// Refused before anything is written: a path that leads to one of the command's inputs (compared by device and
/// inode, so `./x.ips`, a symbolic link and a hard link are caught), a path that is itself a symbolic link (it is
/// neither followed nor replaced), and a folder. A device, FIFO or socket already at the path (`/dev/full`,
/// `/dev/null`) is written in place: there is no file to replace, and renaming over it would replace the node.
package enum AtomicOutputFile {
    /// Writes `text` to `path`, unless `path` is one of `inputs` (or a link, or a folder).
    package static func write(
        _ text: String,
        to path: String,
        protecting inputs: Set<FileIdentity> = []
    ) throws(OutputFileError) {
        var text = text
        let outcome = text.withUTF8 { buffer in
            write(UnsafeRawBufferPointer(buffer), to: path, protecting: inputs, writer: systemWrite)
        }
        try outcome.get()
    }

    /// Writes `bytes` to `path`, unless `path` is one of `inputs` (or a link, or a folder).
    package static func write(
        _ bytes: [UInt8],
        to path: String,
        protecting inputs: Set<FileIdentity> = []
    ) throws(OutputFileError) {
        let outcome = bytes.withUnsafeBytes { buffer in
            write(buffer, to: path, protecting: inputs, writer: systemWrite)
        }
        try outcome.get()
    }

    /// Why `path` cannot be an output of a command that reads `inputs`, before any work is done (a usage error);
    /// nil when it can be tried.
    package static func refusal(of path: String, protecting inputs: Set<FileIdentity>) -> OutputFileError? {
        if let identity = FileIdentity(path: path), inputs.contains(identity) {
            return OutputFileError(.sameAsInput, "it is one of the inputs; inputs are never overwritten")
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFLNK:
            return OutputFileError(
                .symbolicLink,
                "it is a symbolic link; output is never written through a link (name the file it leads to)"
            )
        case S_IFDIR:
            return OutputFileError(.folder, "it is a folder", errorNumber: EISDIR)
        default:
            return nil
        }
    }

    /// The writer behind both entry points; `writer` is `write(2)` except in tests that make it fail.
    static func write(
        _ bytes: UnsafeRawBufferPointer,
        to path: String,
        protecting inputs: Set<FileIdentity>,
        writer: (Int32, UnsafeRawPointer, Int) -> Int
    ) -> Result<Void, OutputFileError> {
        if let refusal = refusal(of: path, protecting: inputs) { return .failure(refusal) }
        var info = stat()
        let exists = lstat(path, &info) == 0
        let kind = info.st_mode & S_IFMT
        if exists && kind != S_IFREG {
            return writeInPlace(bytes, to: path, protecting: inputs, writer: writer)
        }
        // The permission bits of the file replaced are kept: a report made private stays private.
        let mode = exists ? mode_t(info.st_mode & 0o777) : nil
        return writeReplacing(bytes, to: path, mode: mode, writer: writer)
    }

    /// A device, FIFO or socket: opened without creating or truncating anything, and written.
    private static func writeInPlace(
        _ bytes: UnsafeRawBufferPointer,
        to path: String,
        protecting inputs: Set<FileIdentity>,
        writer: (Int32, UnsafeRawPointer, Int) -> Int
    ) -> Result<Void, OutputFileError> {
        let fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return .failure(systemError(errno)) }
        var info = stat()
        // Replaced by a regular file or an input since it was looked at: not written.
        if fstat(fd, &info) != 0 || info.st_mode & S_IFMT == S_IFREG
            || FileIdentity(descriptor: fd).map({ inputs.contains($0) }) ?? true
        {
            close(fd)
            return .failure(OutputFileError(.system, "the path changed while it was opened", errorNumber: EAGAIN))
        }
        var failure = writeAll(fd, bytes, writer: writer)
        if close(fd) != 0, failure == nil { failure = errno }
        return failure.map { .failure(systemError($0)) } ?? .success(())
    }

    /// A new or regular file: written beside the target under a temporary name, then renamed over it.
    private static func writeReplacing(
        _ bytes: UnsafeRawBufferPointer,
        to path: String,
        mode: mode_t?,
        writer: (Int32, UnsafeRawPointer, Int) -> Int
    ) -> Result<Void, OutputFileError> {
        let (fd, temporary) = createTemporary(besides: path)
        guard fd >= 0 else { return .failure(systemError(-fd)) }
        // An interrupt (SIGINT, SIGTERM) removes it with the temporary folders.
        TemporaryFiles.register(temporary)
        var failure: Int32?
        if let mode, fchmod(fd, mode) != 0 { failure = errno }
        if failure == nil { failure = writeAll(fd, bytes, writer: writer) }
        // A file system that cannot sync (EINVAL) has nothing more to flush.
        if failure == nil, fsync(fd) != 0, errno != EINVAL { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        guard failure == nil else {
            TemporaryFiles.remove(temporary)
            return .failure(systemError(failure ?? EIO))
        }
        TemporaryFiles.forget(temporary)
        syncFolder(of: path)
        return .success(())
    }

    /// A fresh `.apm-inspect-XXXXXXXX.tmp` in the folder of `path`, made with `O_EXCL` (never an existing file or
    /// link) and mode 0644 less the umask; its descriptor, or minus the `errno` that stopped it.
    private static func createTemporary(besides path: String) -> (fd: Int32, path: String) {
        let folder = folderOf(path)
        let prefix = folder == "/" ? "/" : folder + "/"
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        for _ in 0..<100 {
            let suffix = String((0..<8).map { _ in letters[Int(generator.next(upperBound: UInt(letters.count)))] })
            let candidate = prefix + ".apm-inspect-" + suffix + ".tmp"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd >= 0 { return (fd, candidate) }
            if errno != EEXIST { return (-errno, candidate) }
        }
        return (-EEXIST, prefix)
    }

    /// The folder a path names a file in: `.` for a bare name.
    static func folderOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// Makes the rename itself durable; a folder that cannot be synced changes nothing already written.
    private static func syncFolder(of path: String) {
        let fd = open(folderOf(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Writes every byte, retrying short writes and EINTR; the `errno` of a failure (EIO for a write of nothing).
    private static func writeAll(
        _ fd: Int32,
        _ bytes: UnsafeRawBufferPointer,
        writer: (Int32, UnsafeRawPointer, Int) -> Int
    ) -> Int32? {
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let n = writer(fd, base + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return n < 0 ? errno : EIO }
            offset += n
        }
        return nil
    }

    private static func systemError(_ number: Int32) -> OutputFileError {
        OutputFileError(.system, String(cString: strerror(number)), errorNumber: number)
    }
}

/// `write(2)`, named apart from ``AtomicOutputFile/write(_:to:protecting:)``.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
