import Foundation
import FuzzReplaySupport
import Testing

@testable import APMInspectCore

/// The walk hands files out one at a time; these hold it to the walk that collected every path and sorted them.
@Suite struct DirectoryWalkOrderTests {
    /// The whole-tree walk as it was before files were handed out one at a time: every path collected, then sorted.
    private func referenceFiles(_ paths: [RawPath]) -> (files: [RawPath], findings: [DirectoryWalker.Finding]) {
        struct FileID: Hashable {
            var device: UInt64
            var inode: UInt64
            init(_ info: stat) {
                device = UInt64(truncatingIfNeeded: info.st_dev)
                inode = UInt64(truncatingIfNeeded: info.st_ino)
            }
        }
        func status(_ path: RawPath, follow: Bool) -> stat? {
            var info = stat()
            return path.withCString { follow ? stat($0, &info) : lstat($0, &info) } == 0 ? info : nil
        }
        typealias Finding = DirectoryWalker.Finding
        var files: [RawPath] = []
        var findings: [Finding] = []
        for path in paths {
            guard let info = status(path, follow: true) else {
                findings.append(Finding(path: path, code: .walkCannotOpen, message: "missing", isError: true))
                continue
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                files.append(path)
                continue
            }
            var found: [RawPath] = []
            var visited: Set<FileID> = [FileID(info)]
            var stack: [RawPath] = [path]
            var linked: [(path: RawPath, id: FileID)] = []
            while true {
                let folder: RawPath
                if let next = stack.popLast() {
                    folder = next
                } else if let (next, id) = linked.popLast() {
                    guard visited.insert(id).inserted else {
                        findings.append(Finding(path: next, code: .walkAlreadyWalked, message: "loop", isError: false))
                        continue
                    }
                    folder = next
                } else {
                    break
                }
                guard case .success(let entries) = DirectoryWalker.readDirectory(folder) else {
                    findings.append(Finding(path: folder, code: .walkCannotList, message: "cannot list", isError: true))
                    continue
                }
                var subfolders: [RawPath] = []
                var linkedFolders: [(path: RawPath, id: FileID)] = []
                for name in entries.map(\.name).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                    let child = folder.appending(name)
                    guard let link = status(child, follow: false) else {
                        findings.append(Finding(path: child, code: .walkVanished, message: "vanished", isError: false))
                        continue
                    }
                    var target = link
                    let isLink = link.st_mode & S_IFMT == S_IFLNK
                    if isLink {
                        guard let followed = status(child, follow: true) else {
                            findings.append(
                                Finding(path: child, code: .walkDanglingLink, message: "dangling", isError: false)
                            )
                            continue
                        }
                        target = followed
                    }
                    switch target.st_mode & S_IFMT {
                    case S_IFREG: found.append(child)
                    case S_IFDIR where isLink: linkedFolders.append((child, FileID(target)))
                    case S_IFDIR:
                        guard visited.insert(FileID(target)).inserted else {
                            findings.append(
                                Finding(path: child, code: .walkAlreadyWalked, message: "bind mount", isError: false)
                            )
                            continue
                        }
                        subfolders.append(child)
                    default:
                        findings.append(
                            Finding(path: child, code: .walkNotARegularFile, message: "other", isError: false)
                        )
                    }
                }
                stack += subfolders.reversed()
                linked += linkedFolders.reversed()
            }
            files += found.sorted()
        }
        return (files, findings)
    }

    /// The findings as (path, isError) in path order: the reference's messages are short labels, and the walk
    /// reports them in another order (folders when planned, other entries when listed).
    private func comparable(_ findings: [DirectoryWalker.Finding]) -> [String] {
        findings.map { "\($0.path.display) \($0.code) \($0.isError)" }.sorted()
    }

    /// Names chosen so that whole-path order and per-folder name order disagree (`a` against `a-b`, `a.b`, `a0`,
    /// `a b`), with a byte that is not UTF-8 and one above `/`'s neighbours.
    private static let names: [[UInt8]] =
        ["a", "a-b", "a.b", "a0", "a b", "ab", "b", "B", "_", ".hidden"].map {
            Array($0.utf8)
        } + [[0xFF], [0x61, 0x2F - 1], [0x61, 0x7E]]

    /// A random tree under `root`: files, folders, links to folders inside and outside it and back up, links to
    /// files, dangling links and FIFOs.
    private func makeTree(in root: RawPath, outside: RawPath, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var folders = [root]
        for _ in 0..<(6 + random.below(30)) {
            let parent = random.pick(folders)
            let child = parent.appending(random.pick(Self.names))
            var info = stat()
            if child.withCString({ lstat($0, &info) }) == 0 { continue }
            let roll = random.below(100)
            let made: Int32
            switch roll {
            case 0..<45:
                let fd = child.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
                made = fd >= 0 ? 0 : -1
                if fd >= 0 { close(fd) }
            case 45..<70:
                made = child.withCString { Foundation.mkdir($0, 0o700) }
                if made == 0 { folders.append(child) }
            case 70..<82:
                let target = random.chance() ? random.pick(folders) : outside
                made = target.withCString { t in child.withCString { symlink(t, $0) } }
            case 82..<88:
                made = child.withCString { symlink("..", $0) }
            case 88..<94:
                made = child.withCString { symlink("nowhere", $0) }
            default:
                made = child.withCString { mkfifo($0, 0o600) }
            }
            #expect(made == 0)
        }
    }

    @Test(arguments: 0..<60)
    func theWalkHandsOutWhatTheWholeWalkCollected(seed: UInt64) throws {
        let folder = try TemporaryTestFolder()
        let outsideFolder = try TemporaryTestFolder()
        let tree = folder.raw.appending(Array("tree".utf8))
        let outside = outsideFolder.raw
        #expect(tree.withCString { Foundation.mkdir($0, 0o700) } == 0)
        try outsideFolder.write([0x7B, 0x7D], named: "o.ips")
        #expect(outside.appending(Array("sub".utf8)).withCString { Foundation.mkdir($0, 0o700) } == 0)
        try outsideFolder.write([0x7B, 0x7D], named: "sub/p.ips")
        try makeTree(in: tree, outside: outside, seed: seed)

        let reference = referenceFiles([tree])
        let walked = DirectoryWalker().files(in: [tree])
        #expect(walked.files == reference.files)
        #expect(comparable(walked.findings) == comparable(reference.findings))
        // A file system that gives no entry types (`DT_UNKNOWN`) is asked about every entry: the same walk.
        let untyped = DirectoryWalker(list: { path in
            DirectoryWalker.readDirectory(path).map { $0.map { DirectoryWalker.Listed(name: $0.name) } }
        })
        let asked = untyped.files(in: [tree])
        #expect(asked.files == reference.files)
        #expect(comparable(asked.findings) == comparable(reference.findings))

        // Taken one at a time, the same files, and as many as the plan counted (the tree does not change here).
        var walk = DirectoryWalker().walk([tree, outside])
        var streamed: [RawPath] = []
        while let item = walk.next() {
            if case .file(let file) = item { streamed.append(file) }
        }
        #expect(streamed == reference.files + referenceFiles([outside]).files)
        #expect(walk.expectedFiles == streamed.count)
    }

    @Test func aFolderSortsAsItsNameWithASlash() throws {
        let folder = try TemporaryTestFolder()
        for name in ["a", "a-b"] {
            #expect(folder.raw.appending(Array(name.utf8)).withCString { Foundation.mkdir($0, 0o700) } == 0)
        }
        try folder.write([0x7B, 0x7D], named: "a/x.ips")
        try folder.write([0x7B, 0x7D], named: "a-b/y.ips")
        try folder.write([0x7B, 0x7D], named: "a.ips")
        try folder.write([0x7B, 0x7D], named: "a0.ips")
        let names = DirectoryWalker().files(in: [folder.raw]).files.map { $0.display.dropFirst(folder.path.count + 1) }
        // `-` (0x2D) and `.` (0x2E) sort before `/` (0x2F), `0` after it: whole-path byte order.
        #expect(names == ["a-b/y.ips", "a.ips", "a/x.ips", "a0.ips"])
    }

    /// Counts the listings of one folder; the walk lists each folder once to plan and once to read it.
    private final class ListingCount: @unchecked Sendable {
        var count = 0
    }

    @Test func aFolderMadeBetweenPlanAndReadingIsNamedNotSkippedInSilence() throws {
        let folder = try TemporaryTestFolder()
        try folder.write([0x7B, 0x7D], named: "old.ips")
        let root = folder.raw
        let listings = ListingCount()
        // The second listing of the root (the reading one) finds a folder the plan never saw.
        let walker = DirectoryWalker(list: { path in
            if path == root {
                listings.count += 1
                if listings.count == 2 {
                    _ = root.appending(Array("new".utf8)).withCString { Foundation.mkdir($0, 0o700) }
                    let fd = root.appending(Array("new/late.ips".utf8)).withCString { creat($0, 0o600) }
                    if fd >= 0 { close(fd) }
                }
            }
            return DirectoryWalker.readDirectory(path)
        })
        let (files, findings) = walker.files(in: [root])
        #expect(files == [root.appending(Array("old.ips".utf8))])
        #expect(
            findings == [
                .init(
                    path: root.appending(Array("new".utf8)),
                    code: .walkAppearedDuringWalk,
                    message: "a folder that appeared while the walk was under way; not read",
                    isError: false
                )
            ]
        )
    }
}
