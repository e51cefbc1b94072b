import APMInspectCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Expands the paths a user gives into the regular files under them, recursively, in a stable order.
package enum PathWalker {
    /// A path that could not be walked: input may have gone unread.
    package struct Failure: Error, Sendable {
        package var path: String
        package var message: String
    }

    /// One input of a command, in the order the user gave them: a file to read, or why a path gave none.
    package enum Input: Sendable {
        case file(RawPath)
        case failure(Failure)
    }

    /// The argument that names standard input.
    package static let standardInputArgument = "-"

    /// The path standard input is opened by: readers open paths, and this one names descriptor 0 whatever it is
    /// (a pipe is read once, as a FIFO is; a redirected file like any file).
    package static let standardInputPath = "/dev/stdin"

    /// The wording of an empty folder, the same in every command.
    package static let emptyFolderMessage = "the folder holds no files; nothing was read"

    /// Why `paths` cannot be read as given, or nil: `-` given more than once (standard input can be read only once).
    package static func usageProblem(_ paths: [String]) -> String? {
        paths.filter({ $0 == standardInputArgument }).count > 1
            ? "`-` (standard input) can be given only once" : nil
    }

    /// The path a reader opens for an argument: standard input for `-`.
    package static func openable(_ argument: String) -> String {
        argument == standardInputArgument ? standardInputPath : argument
    }

    /// The name shown for a path a reader was given: `-` for standard input, as the user typed it.
    package static func shown(_ path: String) -> String {
        path == standardInputPath ? standardInputArgument : path
    }

    /// True when `argument` names a folder (through links too); `-` never does.
    package static func isFolder(_ argument: String) -> Bool {
        guard argument != standardInputArgument, let raw = rawArguments([argument]).first else { return false }
        var info = stat()
        return raw.withCString { stat($0, &info) } == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The inputs named by `paths`, each argument's files (or failures) in the order of the arguments.
    ///
    /// Notes (link loops, FIFOs, dangling links in a folder) go to `note` as they are met; failures are inputs,
    /// for the caller to report in their place and count. A folder without a file is a failure in every command,
    /// as an empty file is: nothing was read where the user expected something.
    package static func inputs(in paths: [String], note: @escaping (Failure) -> Void) -> [Input] {
        var stream = InputStream(paths, note: note)
        var inputs: [Input] = []
        while let input = stream.next() { inputs.append(input) }
        return inputs
    }

    /// The files named by `paths`, names kept as bytes (see ``DirectoryWalker``), and the failures.
    package static func rawFiles(in paths: [String], note: @escaping (Failure) -> Void) -> (
        files: [RawPath], failures: [Failure]
    ) {
        var files: [RawPath] = []
        var failures: [Failure] = []
        for input in inputs(in: paths, note: note) {
            switch input {
            case .file(let file): files.append(file)
            case .failure(let failure): failures.append(failure)
            }
        }
        return (files, failures)
    }

    /// The same as text, for commands that open files by `String`: a name that is not UTF-8 shows escaped and
    /// fails to open with a message, never in silence.
    package static func files(in paths: [String], note: @escaping (Failure) -> Void) -> (
        files: [String], failures: [Failure]
    ) {
        let (files, failures) = rawFiles(in: paths, note: note)
        return (files.map(\.display), failures)
    }

    /// The bytes the user typed for each path.
    ///
    /// `CommandLine.arguments` decodes argv as UTF-8 and replaces what is not, which would lose names that are not
    /// UTF-8. Each path is matched, in order, to the first unused argv entry that decodes to it.
    package static func rawArguments(_ paths: [String]) -> [RawPath] {
        var argv: [[UInt8]] = []
        for k in 1..<max(1, Int(CommandLine.argc)) {
            guard let pointer = CommandLine.unsafeArgv[k] else { continue }
            argv.append(
                Array(UnsafeBufferPointer(start: pointer, count: strlenOf(pointer)).map { UInt8(bitPattern: $0) })
            )
        }
        var used = [Bool](repeating: false, count: argv.count)
        var cursor = 0
        return paths.map { path in
            for k in cursor..<argv.count where !used[k] && String(decoding: argv[k], as: UTF8.self) == path {
                used[k] = true
                cursor = k + 1
                return RawPath(bytes: argv[k])
            }
            return RawPath(path)
        }
    }

    private static func strlenOf(_ pointer: UnsafeMutablePointer<CChar>) -> Int {
        var n = 0
        while pointer[n] != 0 { n += 1 }
        return n
    }
}
