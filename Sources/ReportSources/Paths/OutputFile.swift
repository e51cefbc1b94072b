import APMInspectCore

/// Writes a file the user named for output (`translate -o`, `report -o`, `energy --plot`, envelopes into `-o DIR`)
/// through ``AtomicOutputFile``: never through a link, never over an input, never half a file over a whole one.
///
/// `String.write(toFile:atomically:)` reported success for `/dev/full` on Linux with nothing written; here a short
/// write, a failed `close` or `fsync`, or an unwritable folder is an error.
package enum OutputFile {
    /// Writes `text` to `path` unless it is one of `inputs`; nil on success, else why it failed (or was refused).
    package static func write(_ text: String, toPath path: String, protecting inputs: Set<FileIdentity>) -> String? {
        do {
            try AtomicOutputFile.write(text, to: path, protecting: inputs)
            return nil
        } catch {
            return error.message
        }
    }

    /// The files a command reads, by identity: each path as named (links followed) and, for `-`, the file standard
    /// input was redirected from.
    package static func identities(of paths: [String]) -> Set<FileIdentity> {
        Set(
            paths.compactMap { path in
                path == PathWalker.standardInputArgument
                    ? FileIdentity(descriptor: 0) : FileIdentity(path: PathWalker.openable(path))
            }
        )
    }

    /// The files a command reads, by identity, from the paths a walk gave.
    package static func identities(of paths: [RawPath]) -> Set<FileIdentity> {
        Set(paths.compactMap { FileIdentity(path: $0) })
    }

    /// True when a file that `paths` name (itself, inside a folder, through a link or a hard link) is `target`.
    ///
    /// For a command that streams its inputs and still refuses an output that is one of them before reading any:
    /// the walk compares as it goes and holds no list of the files.
    package static func walk(_ paths: [String], reaches target: FileIdentity) -> Bool {
        var stream = PathWalker.InputStream(paths, note: { _ in })
        while let input = stream.next() {
            if case .file(let file) = input, FileIdentity(path: file) == target { return true }
        }
        return false
    }
}
