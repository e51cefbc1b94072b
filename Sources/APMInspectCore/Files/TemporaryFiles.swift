import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The private temporary folders the libraries create, kept in one process-wide list so the executable can remove
/// them when the user interrupts a run (a library may not install signal handlers, and a `defer` does not run
/// when the process is killed).
///
/// Folders are made with `mkdtemp` (a fresh name, mode 0700): nobody else can create or read a file in them.
package enum TemporaryFiles {
    private static let registered = Mutex<Set<String>>([])

    /// Creates a fresh private folder under `base` (`TMPDIR`, else `/tmp`, when nil) and registers it.
    ///
    /// - Throws: ``InputError`` with code `unreadable` when the folder cannot be created.
    package static func makeFolder(in base: String? = nil, prefix: String) throws(InputError) -> String {
        let (root, name) = Self.template(in: base, prefix: prefix)
        var template = name
        let created = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }.map { String(cString: $0) }
        }
        guard let created else {
            throw InputError(.unreadable, "cannot create a temporary folder in \(root): \(errnoText())")
        }
        registered.withLock { _ = $0.insert(created) }
        return created
    }

    /// Creates a private file under `base` (`TMPDIR`, else `/tmp`, when nil) that has no name: it is unlinked as soon
    /// as it is made, so it is gone when its descriptor is closed, whatever ends the process, and nobody can open it.
    ///
    /// For scratch data that should not be held in memory (``JSONArraySpool``); the caller closes the descriptor.
    ///
    /// - Throws: ``InputError`` with code `unreadable` when the file cannot be created.
    package static func makeUnlinkedFile(in base: String? = nil, prefix: String) throws(InputError) -> Int32 {
        let (root, name) = Self.template(in: base, prefix: prefix)
        var template = name
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            let fd = mkstemp(base)
            if fd >= 0 { unlink(base) }
            return fd
        }
        guard fd >= 0 else {
            throw InputError(.unreadable, "cannot create a temporary file in \(root): \(errnoText())")
        }
        return fd
    }

    /// The folder to create in (`base`, else `TMPDIR`, else `/tmp`) and a `mkstemp`-style template for a name in it.
    private static func template(in base: String?, prefix: String) -> (root: String, template: [CChar]) {
        let root = base ?? environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let safePrefix = String(prefix.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        return (root, Array(((root.hasSuffix("/") ? root : root + "/") + safePrefix + ".XXXXXX").utf8CString))
    }

    /// Removes `folder` with everything in it and forgets it.
    package static func remove(_ folder: String) {
        registered.withLock { _ = $0.remove(folder) }
        removeTree(folder)
    }

    /// Registers a folder created elsewhere (the executable's own scratch folder), or a file being written under a
    /// temporary name (``AtomicOutputFile``), so that an interrupt removes it.
    package static func register(_ folder: String) {
        registered.withLock { _ = $0.insert(folder) }
    }

    /// Forgets a registered path without removing it: a temporary file renamed to its final name is kept.
    package static func forget(_ path: String) {
        registered.withLock { _ = $0.remove(path) }
    }

    /// Removes every registered folder: called by the executable on SIGINT and SIGTERM, before it exits.
    package static func removeAll() {
        let all = registered.withLock { folders in
            let copy = folders
            folders.removeAll()
            return copy
        }
        for folder in all { removeTree(folder) }
    }

    /// The registered folders (tests check that none is left behind).
    package static var folders: Set<String> { registered.withLock { $0 } }

    /// Creates `name` inside `folder` exclusively (`O_EXCL`, mode 0600) and returns its descriptor.
    ///
    /// - Throws: ``InputError`` with code `unreadable` when the file exists or cannot be created.
    package static func createFile(_ path: String) throws(InputError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw InputError(.unreadable, "cannot create \(path): \(errnoText())") }
        return fd
    }

    /// Writes all of `bytes` to a new private file at `path`.
    package static func write(_ bytes: [UInt8], toNewFile path: String) throws(InputError) {
        let fd = try createFile(path)
        defer { close(fd) }
        guard writeAll(fd, bytes) else {
            let reason = errnoText()
            // This call made the file: a partial copy (a full disk) is not left behind.
            unlink(path)
            throw InputError(.unreadable, "cannot write \(path): \(reason)")
        }
    }

    /// Removes one file this process made (a link is removed, never followed).
    package static func removeFile(_ path: String) {
        unlink(path)
    }

    /// Writes every byte of `bytes` to `fd`, retrying short writes and EINTR; false on any other failure.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let n = systemWrite(fd, base + offset, buffer.count - offset)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    /// Depth-first removal without following symbolic links (only what this process made is inside); names are
    /// kept as raw bytes, so a member name that is not UTF-8 is still removed.
    private static func removeTree(_ path: String) {
        removeTree(bytes: Array(path.utf8))
    }

    private static func removeTree(bytes path: [UInt8]) {
        let cPath = path.map { CChar(bitPattern: $0) } + [0]
        var info = stat()
        guard lstat(cPath, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            unlink(cPath)
            return
        }
        if let directory = opendir(cPath) {
            var names: [[UInt8]] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
                if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
            }
            closedir(directory)
            for name in names { removeTree(bytes: path + [0x2F] + name) }
        }
        rmdir(cPath)
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// `write(2)`, named apart from ``TemporaryFiles/write(_:toNewFile:)``.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
