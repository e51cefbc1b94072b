import APMInspectCore

/// The files of a command's paths, taken one at a time by the workers of `scan` and `memory-limits`.
///
/// Failures to walk (a folder that cannot be listed, a missing path, an empty folder) go to `failure` where the walk
/// meets them and are remembered for the exit status; the workers only ever see files.
package final class WalkedFiles {
    private var stream: PathWalker.InputStream
    /// True once a path gave a failure: input may have gone unread, and the command exits 1.
    package private(set) var failed = false

    /// The files the walk planned to read, for the progress bar.
    package var expectedFiles: Int { stream.expectedFiles }

    private let failure: (PathWalker.Failure) -> Void

    package init(
        _ paths: [String],
        note: @escaping (PathWalker.Failure) -> Void,
        failure: @escaping (PathWalker.Failure) -> Void
    ) {
        stream = PathWalker.InputStream(paths, note: note)
        self.failure = failure
    }

    /// The next file, or nil when the walk is done.
    ///
    /// Not thread-safe: ``ParallelMap`` calls it under its lock.
    package func next() -> RawPath? {
        while let input = stream.next() {
            switch input {
            case .file(let file):
                return file
            case .failure(let walkFailure):
                failed = true
                failure(walkFailure)
            }
        }
        return nil
    }
}
