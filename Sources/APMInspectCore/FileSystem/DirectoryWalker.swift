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
package struct DirectoryWalker: Sendable {
    package struct Finding: Sendable, Equatable {
        package var path: RawPath
        /// What the finding is about (`walk.cannot-list`, `walk.dangling-link`, …).
        package var code: Diagnostic.Code
        package var message: String
        /// True when input may have gone unread: the command exits 1.
        package var isError: Bool

        package init(path: RawPath, code: Diagnostic.Code, message: String, isError: Bool) {
            self.path = path
            self.code = code
            self.message = message
            self.isError = isError
        }
    }

    /// One entry of a folder's listing: its name, and its type as the listing gave it (a `DT_` value).
    ///
    /// The type saves a `stat` call per regular file on the file systems that fill it in; `DT_UNKNOWN` (0), which
    /// the others give, makes the walker ask the file system instead.
    package struct Listed: Sendable, Equatable {
        package var name: [UInt8]
        package var type: UInt8

        package init(name: [UInt8], type: UInt8 = 0) {
            self.name = name
            self.type = type
        }

        /// True when the listing itself says it is a regular file, which no link or later change of type can be
        /// (a link is listed as a link).
        var isRegularFile: Bool { type == UInt8(truncatingIfNeeded: DT_REG) }
    }

    /// What listing a folder gave: its entries, or the errno that stopped it.
    package typealias Lister = @Sendable (RawPath) -> Result<[Listed], Errno>

    package struct Errno: Error, Sendable, Equatable {
        package var code: Int32

        package init(_ code: Int32) {
            self.code = code
        }

        package var text: String { String(cString: strerror(code)) }
    }

    /// Lists folders; tests replace it to make a listing fail the way an unreadable folder does.
    package var list: Lister

    package init(list: @escaping Lister = DirectoryWalker.readDirectory) {
        self.list = list
    }

    /// The regular files named by `paths`, each folder's files in byte order, and the findings.
    ///
    /// Collects ``walk(_:)``: for a caller that wants every path at once. A scan of a large tree should take the
    /// walk instead, which holds one listing per folder level rather than every path.
    package func files(in paths: [RawPath]) -> (files: [RawPath], findings: [Finding]) {
        var files: [RawPath] = []
        var findings: [Finding] = []
        var walk = walk(paths)
        while let item = walk.next() {
            switch item {
            case .file(let file): files.append(file)
            case .finding(let finding): findings.append(finding)
            }
        }
        return (files, findings)
    }

    /// The files named by `paths` one at a time, in the order of ``files(in:)``, with the findings where they arise.
    ///
    /// Each folder tree is planned first (which folders are walked, decided exactly as a whole walk decides them,
    /// and how many files they hold), then listed again folder by folder as the files are taken.
    package func walk(_ paths: [RawPath]) -> DirectoryWalk {
        var steps: [DirectoryWalk.Step] = []
        var expected = 0
        for path in paths {
            guard let info = Self.status(path, follow: true) else {
                let code = errno
                let dangling = Self.status(path, follow: false) != nil
                let finding = Finding(
                    path: path,
                    code: dangling ? .walkDanglingLink : .walkCannotOpen,
                    // The words FileReading uses when a file cannot be opened: one wording in every command.
                    message: dangling
                        ? "cannot open: a symbolic link to nothing (\(Errno(code).text))"
                        : "cannot open: \(Errno(code).text)",
                    isError: true
                )
                steps.append(.item(.finding(finding)))
                continue
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                // A file named on purpose is read whatever it is: the reader says what it found.
                steps.append(.item(.file(path)))
                expected += 1
                continue
            }
            let plan = plan(path, root: info)
            steps += plan.findings.map { .item(.finding($0)) }
            steps.append(.tree(root: path, walked: plan.walked, seen: plan.seen))
            expected += plan.files
        }
        return DirectoryWalk(walker: self, steps: steps, expectedFiles: expected)
    }

    /// Which folders under `root` are walked, which were met at all, the findings about folders, and how many regular
    /// files they hold.
    ///
    /// Folders are decided here rather than as the files are taken because a folder reached through a link is
    /// walked only if no real folder is the same one, which is known only once every real folder has been seen.
    /// Entries that are not folders get their findings when the walk lists them again.
    private func plan(
        _ root: RawPath,
        root info: stat
    ) -> (walked: Set<[UInt8]>, seen: Set<[UInt8]>, files: Int, findings: [Finding]) {
        var walked: Set<[UInt8]> = []
        var seen: Set<[UInt8]> = [root.bytes]
        var files = 0
        var findings: [Finding] = []
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
                            code: .walkAlreadyWalked,
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
            let listed: [Listed]
            switch list(folder) {
            case .success(let entries): listed = entries
            case .failure(let error):
                findings.append(
                    Finding(
                        path: folder,
                        code: .walkCannotList,
                        message: "cannot list the folder: \(error.text)",
                        isError: true
                    )
                )
                continue
            }
            walked.insert(folder.bytes)
            // Only folders are decided here, in name order as a whole walk met them (the first of two names for
            // one folder is the one walked); regular files are counted, other entries left for the second listing.
            var folders: [(name: [UInt8], path: RawPath, id: FileID, isLink: Bool)] = []
            for entry in listed {
                if entry.isRegularFile {
                    files += 1
                    continue
                }
                let child = folder.appending(entry.name)
                switch Self.entry(child, listed: entry) {
                case .regular: files += 1
                case .folder(let info, let isLink):
                    seen.insert(child.bytes)
                    folders.append((entry.name, child, FileID(info), isLink))
                case .vanished, .dangling, .other: continue
                }
            }
            folders.sort { $0.name.lexicographicallyPrecedes($1.name) }
            var subfolders: [RawPath] = []
            var linkedFolders: [(path: RawPath, id: FileID)] = []
            for folder in folders {
                if folder.isLink {
                    linkedFolders.append((folder.path, folder.id))
                    continue
                }
                guard visited.insert(folder.id).inserted else {
                    findings.append(
                        Finding(
                            path: folder.path,
                            code: .walkAlreadyWalked,
                            message: "a folder already walked (a bind mount?); skipped",
                            isError: false
                        )
                    )
                    continue
                }
                subfolders.append(folder.path)
            }
            // Reversed so the stack pops them in name order.
            stack += subfolders.reversed()
            linked += linkedFolders.reversed()
        }
        return (walked, seen, files, findings)
    }

    /// What a folder entry turned out to be when looked at.
    enum Entry {
        /// Removed while walking: nothing left to read.
        case vanished
        /// A symbolic link that leads nowhere.
        case dangling
        case regular
        /// A folder's status, reached through a link when `isLink`.
        case folder(stat, isLink: Bool)
        /// Anything else (a FIFO, a socket, a device), by its mode.
        case other(mode_t)
    }

    /// Looks at a folder entry, following a symbolic link; a regular file the listing named as one needs no look.
    static func entry(_ path: RawPath, listed: Listed) -> Entry {
        if listed.isRegularFile { return .regular }
        guard let link = status(path, follow: false) else { return .vanished }
        var target = link
        let isLink = link.st_mode & S_IFMT == S_IFLNK
        if isLink {
            guard let followed = status(path, follow: true) else { return .dangling }
            target = followed
        }
        switch target.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .folder(target, isLink: isLink)
        default: return .other(target.st_mode)
        }
    }

    static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe), not a regular file"
        case S_IFSOCK: "a socket, not a regular file"
        case S_IFCHR: "a character device, not a regular file"
        case S_IFBLK: "a block device, not a regular file"
        default: "not a regular file"
        }
    }

    struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ info: stat) {
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
        }
    }

    static func status(_ path: RawPath, follow: Bool) -> stat? {
        var info = stat()
        let result = path.withCString { follow ? stat($0, &info) : lstat($0, &info) }
        return result == 0 ? info : nil
    }

    /// The entries of a folder (without `.` and `..`), unsorted.
    package static let readDirectory: Lister = { path in
        guard let directory = path.withCString({ opendir($0) }) else { return .failure(Errno(errno)) }
        defer { closedir(directory) }
        var names: [Listed] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else {
                if errno != 0 { return .failure(Errno(errno)) }
                break
            }
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(Listed(name: name, type: entry.pointee.d_type))
        }
        return .success(names)
    }
}
