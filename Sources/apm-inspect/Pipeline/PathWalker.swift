import APMInspectCore

/// Expands the paths a user gives into the regular files under them, recursively, in a stable order.
enum PathWalker {
    /// A path that could not be walked: input may have gone unread.
    struct Failure: Error {
        var path: String
        var message: String
    }

    /// The files named by `paths`, names kept as bytes (see ``DirectoryWalker``).
    ///
    /// Notes (link loops, FIFOs, dangling links in a folder) are printed here; errors are returned for the caller
    /// to print and count.
    static func rawFiles(in paths: [String]) -> (files: [RawPath], failures: [Failure]) {
        let (files, findings) = DirectoryWalker().files(in: rawArguments(paths))
        var failures: [Failure] = []
        for finding in findings {
            if finding.isError {
                failures.append(Failure(path: finding.path.display, message: finding.message))
            } else {
                Console.error(
                    ErrorLine.render(
                        path: finding.path.display,
                        location: nil,
                        message: finding.message,
                        severity: "note"
                    )
                )
            }
        }
        return (files, failures)
    }

    /// The same as text, for commands that open files by `String`: a name that is not UTF-8 shows escaped and
    /// fails to open with a message, never in silence.
    static func files(in paths: [String]) -> (files: [String], failures: [Failure]) {
        let (files, failures) = rawFiles(in: paths)
        return (files.map(\.display), failures)
    }

    /// The bytes the user typed for each path.
    ///
    /// `CommandLine.arguments` decodes argv as UTF-8 and replaces what is not, which would lose names that are not
    /// UTF-8. Each path is matched, in order, to the first unused argv entry that decodes to it.
    static func rawArguments(_ paths: [String]) -> [RawPath] {
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
