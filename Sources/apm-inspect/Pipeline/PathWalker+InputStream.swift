import APMInspectCore
import ReportRendering

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension PathWalker {
    /// The inputs named by some paths, one at a time, in the order of ``PathWalker/inputs(in:)``.
    ///
    /// `scan` and `memory-limits` take their files from this as the workers ask for them, so a million reports
    /// are never a million paths in memory at once (see ``DirectoryWalk``). Notes are printed as they are met;
    /// failures are inputs, for the caller to report in their place and count.
    struct InputStream: IteratorProtocol {
        private var arguments: [(argument: String, raw: RawPath, walk: DirectoryWalk?)]
        private var nextArgument = 0
        /// The walk of the argument being read, and whether it gave a file or a failure yet.
        private var current: DirectoryWalk?
        private var currentPath = RawPath(bytes: [])
        private var currentGaveSomething = false

        /// The files the walks planned to read: the total of a progress bar.
        let expectedFiles: Int

        init(_ paths: [String]) {
            var arguments: [(argument: String, raw: RawPath, walk: DirectoryWalk?)] = []
            var expected = 0
            for (argument, raw) in zip(paths, rawArguments(paths)) {
                if argument == standardInputArgument {
                    arguments.append((argument, raw, nil))
                    expected += 1
                    continue
                }
                let walk = DirectoryWalker().walk([raw])
                expected += walk.expectedFiles
                arguments.append((argument, raw, walk))
            }
            self.arguments = arguments
            self.expectedFiles = expected
        }

        mutating func next() -> Input? {
            while true {
                // Taken through the optional in place: a copy of the walk would copy its listings on every file.
                if let item = current?.next() {
                    switch item {
                    case .file(let file):
                        currentGaveSomething = true
                        return .file(file)
                    case .finding(let finding) where finding.isError:
                        currentGaveSomething = true
                        return .failure(Failure(path: finding.path.display, message: finding.message))
                    case .finding(let finding):
                        Console.error(
                            ErrorLine.render(
                                path: finding.path.display,
                                location: nil,
                                message: finding.message,
                                severity: "note"
                            )
                        )
                    }
                    continue
                }
                if current != nil {
                    current = nil
                    if !currentGaveSomething {
                        return .failure(Failure(path: currentPath.display, message: emptyFolderMessage))
                    }
                    continue
                }
                guard nextArgument < arguments.count else { return nil }
                let (argument, raw, walk) = arguments[nextArgument]
                // The walk is moved out, so the planned folders of a finished argument are released.
                arguments[nextArgument].walk = nil
                nextArgument += 1
                guard let walk else {
                    guard isatty(0) == 0 else {
                        let message = "standard input is a terminal: pipe or redirect a file into it"
                        return .failure(Failure(path: argument, message: message))
                    }
                    return .file(RawPath(standardInputPath))
                }
                current = walk
                currentPath = raw
                currentGaveSomething = false
            }
        }
    }
}
