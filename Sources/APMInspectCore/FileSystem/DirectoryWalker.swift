#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Expands paths into the regular files under them, with names kept as bytes and nothing skipped in silence.
///
/// Folders are walked recursively (hidden files included: devices write `.ips.synced` copies). Symbolic links are
/// followed, to files and to folders, but a folder already walked is not walked again, which ends link loops.
/// Every path that is not read gets a finding: an error when it may hold input that was not read (a folder that
/// cannot be listed, a path that does not exist), a note otherwise (a loop, a FIFO, a dangling link).
public struct DirectoryWalker: Sendable {
    public struct Finding: Sendable, Equatable {
        public var path: RawPath
        public var message: String
        /// True when input may have gone unread: the command exits 1.
        public var isError: Bool
    }

    /// What listing a folder gave: its entry names, or the errno that stopped it.
    public typealias Lister = @Sendable (RawPath) -> Result<[[UInt8]], Errno>

    public struct Errno: Error, Sendable, Equatable {
        public var code: Int32

        public init(_ code: Int32) {
            self.code = code
        }

        public var text: String { String(cString: strerror(code)) }
    }

    /// Lists folders; tests replace it to make a listing fail the way an unreadable folder does.
    public var list: Lister

    public init(list: @escaping Lister = DirectoryWalker.readDirectory) {
        self.list = list
    }

    /// The regular files named by `paths`, each folder's files in byte order, and the findings.
    public func files(in paths: [RawPath]) -> (files: [RawPath], findings: [Finding]) {
        var files: [RawPath] = []
        var findings: [Finding] = []
        for path in paths {
            guard let info = Self.status(path, follow: true) else {
                let code = errno
                let dangling = Self.status(path, follow: false) != nil
                findings.append(
                    Finding(
                        path: path,
                        // The words FileReading uses when a file cannot be opened: one wording in every command.
                        message: dangling
                            ? "cannot open: a symbolic link to nothing (\(Errno(code).text))"
                            : "cannot open: \(Errno(code).text)",
                        isError: true
                    )
                )
                continue
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                // A file named on purpose is read whatever it is: the reader says what it found.
                files.append(path)
                continue
            }
            var found: [RawPath] = []
            walk(path, root: info, into: &found, findings: &findings)
            files += found.sorted()
        }
        return (files, findings)
    }

    private func walk(_ root: RawPath, root info: stat, into found: inout [RawPath], findings: inout [Finding]) {
        var visited: Set<FileID> = [FileID(info)]
        var stack: [RawPath] = [root]
        // Folders reached through a link wait until every real folder is walked, so a tree is listed under its
        // own names whatever order the links come in, and a link back into it is the one called a loop.
        var linked: [(path: RawPath, id: FileID)] = []
        while true {
            let folder: RawPath
            if let next = stack.popLast() {
                folder = next
            } else if let (next, id) = linked.popLast() {
                guard visited.insert(id).inserted else {
                    findings.append(
                        Finding(
                            path: next,
                            message: "a symbolic link to a folder already walked (a loop, or a second link to it); "
                                + "not followed again",
                            isError: false
                        )
                    )
                    continue
                }
                folder = next
            } else {
                break
            }
            let names: [[UInt8]]
            switch list(folder) {
            case .success(let listed): names = listed.sorted { $0.lexicographicallyPrecedes($1) }
            case .failure(let error):
                findings.append(
                    Finding(path: folder, message: "cannot list the folder: \(error.text)", isError: true)
                )
                continue
            }
            var subfolders: [RawPath] = []
            var linkedFolders: [(path: RawPath, id: FileID)] = []
            for name in names {
                let child = folder.appending(name)
                guard let link = Self.status(child, follow: false) else {
                    // Removed while walking: nothing left to read.
                    findings.append(
                        Finding(path: child, message: "vanished while the folder was walked", isError: false)
                    )
                    continue
                }
                var target = link
                let isLink = link.st_mode & S_IFMT == S_IFLNK
                if isLink {
                    guard let followed = Self.status(child, follow: true) else {
                        findings.append(
                            Finding(path: child, message: "a symbolic link to nothing; skipped", isError: false)
                        )
                        continue
                    }
                    target = followed
                }
                switch target.st_mode & S_IFMT {
                case S_IFREG:
                    found.append(child)
                case S_IFDIR where isLink:
                    linkedFolders.append((child, FileID(target)))
                case S_IFDIR:
                    guard visited.insert(FileID(target)).inserted else {
                        findings.append(
                            Finding(
                                path: child,
                                message: "a folder already walked (a bind mount?); skipped",
                                isError: false
                            )
                        )
                        continue
                    }
                    subfolders.append(child)
                default:
                    findings.append(
                        Finding(path: child, message: "\(Self.describe(target.st_mode)); skipped", isError: false)
                    )
                }
            }
            // Reversed so the stack pops them in name order.
            stack += subfolders.reversed()
            linked += linkedFolders.reversed()
        }
    }

    private static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe), not a regular file"
        case S_IFSOCK: "a socket, not a regular file"
        case S_IFCHR: "a character device, not a regular file"
        case S_IFBLK: "a block device, not a regular file"
        default: "not a regular file"
        }
    }

    private struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ info: stat) {
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
        }
    }

    private static func status(_ path: RawPath, follow: Bool) -> stat? {
        var info = stat()
        let result = path.withCString { follow ? stat($0, &info) : lstat($0, &info) }
        return result == 0 ? info : nil
    }

    /// The entry names of a folder (without `.` and `..`), unsorted.
    public static let readDirectory: Lister = { path in
        guard let directory = path.withCString({ opendir($0) }) else { return .failure(Errno(errno)) }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { return .failure(Errno(errno)) }
                break
            }
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        return .success(names)
    }
}
