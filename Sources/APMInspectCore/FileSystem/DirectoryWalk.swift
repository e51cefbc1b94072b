#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files under some paths, handed out one at a time in the order of ``DirectoryWalker/files(in:)``.
///
/// A scan of a million reports used to hold every path before reading the first file (about 200 bytes each). The
/// walk holds the listing of one folder per level of the tree being read, the set of folders planned, and nothing
/// for the files already handed out, so memory follows the shape of the tree rather than the number of files.
///
/// The order is the byte order of the whole paths, as when every path was collected and sorted: within a folder,
/// entries are taken in the byte order of their names with a `/` after each folder's name, because a path under
/// folder `a` compares with a sibling file `a-b` exactly as `a/` does with `a-b`.
package struct DirectoryWalk: IteratorProtocol, Sendable {
    package enum Item: Sendable, Equatable {
        case file(RawPath)
        case finding(DirectoryWalker.Finding)
    }

    /// What the walk does next for one of the paths it was given.
    enum Step: Sendable {
        case item(Item)
        /// A folder to walk, the folders under it that were planned to be walked, and all those the plan met.
        case tree(root: RawPath, walked: Set<[UInt8]>, seen: Set<[UInt8]>)
        /// Taken already: its folder set is released.
        case done
    }

    /// One folder being handed out: its entries in walk order, and how many were taken.
    ///
    /// An entry is its name, with a `/` after it for a planned folder (names hold no `/`): sorted as plain byte
    /// strings, that is the order of the whole paths, and only folders' names are copied to get it.
    private struct Frame: Sendable {
        var folder: RawPath
        var entries: [[UInt8]]
        var taken = 0
    }

    /// The regular files counted while planning: what a progress bar can expect (files added or removed before
    /// they are reached change what is read, not this figure).
    package let expectedFiles: Int

    private let walker: DirectoryWalker
    private var steps: [Step]
    private var nextStep = 0
    private var walked: Set<[UInt8]> = []
    private var seen: Set<[UInt8]> = []
    private var frames: [Frame] = []
    /// Findings met while listing a folder, handed out before its files.
    private var findings: [DirectoryWalker.Finding] = []
    private var nextFinding = 0

    init(walker: DirectoryWalker, steps: [Step], expectedFiles: Int) {
        self.walker = walker
        self.steps = steps
        self.expectedFiles = expectedFiles
    }

    package mutating func next() -> Item? {
        while true {
            if nextFinding < findings.count {
                let finding = findings[nextFinding]
                nextFinding += 1
                if nextFinding == findings.count {
                    findings.removeAll(keepingCapacity: true)
                    nextFinding = 0
                }
                return .finding(finding)
            }
            if let top = frames.indices.last {
                guard frames[top].taken < frames[top].entries.count else {
                    frames.removeLast()
                    continue
                }
                let entry = frames[top].entries[frames[top].taken]
                frames[top].taken += 1
                if entry.last == UInt8(ascii: "/") {
                    enter(frames[top].folder.appending(Array(entry.dropLast())))
                    continue
                }
                return .file(frames[top].folder.appending(entry))
            }
            guard nextStep < steps.count else { return nil }
            let step = steps[nextStep]
            // The step's folder set is moved out, not copied, and the step dropped: nothing is kept for done paths.
            steps[nextStep] = .done
            nextStep += 1
            switch step {
            case .item(let item):
                return item
            case .tree(let root, let planned, let met):
                walked = planned
                seen = met
                enter(root)
            case .done:
                continue
            }
        }
    }

    /// Lists `folder` again and pushes its entries: files, and the folders the plan walks.
    private mutating func enter(_ folder: RawPath) {
        let listed: [DirectoryWalker.Listed]
        switch walker.list(folder) {
        case .success(let entries): listed = entries
        case .failure(let error):
            // Listed when planned, not now: what it held went unread.
            findings.append(
                DirectoryWalker.Finding(
                    path: folder,
                    code: .walkCannotList,
                    message: "cannot list the folder: \(error.text)",
                    isError: true
                )
            )
            return
        }
        var entries: [[UInt8]] = []
        entries.reserveCapacity(listed.count)
        var found: [(name: [UInt8], finding: DirectoryWalker.Finding)] = []
        for entry in listed {
            if entry.isRegularFile {
                entries.append(entry.name)
                continue
            }
            let child = folder.appending(entry.name)
            let code: Diagnostic.Code
            let message: String
            switch DirectoryWalker.entry(child, listed: entry) {
            case .regular:
                entries.append(entry.name)
                continue
            case .folder:
                if walked.contains(child.bytes) {
                    entries.append(entry.name + [UInt8(ascii: "/")])
                    continue
                }
                // One the plan met but did not walk (a loop, a second link, one that could not be listed) has had
                // its finding already; one made since was never planned, and is not read.
                guard !seen.contains(child.bytes) else { continue }
                code = .walkAppearedDuringWalk
                message = "a folder that appeared while the walk was under way; not read"
            case .vanished: (code, message) = (.walkVanished, "vanished while the folder was walked")
            case .dangling: (code, message) = (.walkDanglingLink, "a symbolic link to nothing; skipped")
            case .other(let mode):
                (code, message) = (.walkNotARegularFile, "\(DirectoryWalker.describe(mode)); skipped")
            }
            found.append(
                (entry.name, DirectoryWalker.Finding(path: child, code: code, message: message, isError: false))
            )
        }
        entries.sort { $0.lexicographicallyPrecedes($1) }
        found.sort { $0.name.lexicographicallyPrecedes($1.name) }
        findings += found.map(\.finding)
        frames.append(Frame(folder: folder, entries: entries))
    }
}
