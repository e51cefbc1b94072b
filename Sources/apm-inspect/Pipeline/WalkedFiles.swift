import APMInspectCore
import ReportRendering

/// The files of a command's paths, taken one at a time by the workers of `scan` and `memory-limits`.
///
/// Failures to walk (a folder that cannot be listed, a missing path, an empty folder) are printed where the walk
/// meets them and remembered for the exit status; the workers only ever see files.
final class WalkedFiles {
    private var stream: PathWalker.InputStream
    /// True once a path gave a failure: input may have gone unread, and the command exits 1.
    private(set) var failed = false

    /// The files the walk planned to read, for the progress bar.
    var expectedFiles: Int { stream.expectedFiles }

    init(_ paths: [String]) {
        stream = PathWalker.InputStream(paths)
    }

    /// The next file, or nil when the walk is done.
    ///
    /// Not thread-safe: ``ParallelMap`` calls it under its lock.
    func next() -> RawPath? {
        while let input = stream.next() {
            switch input {
            case .file(let file):
                return file
            case .failure(let failure):
                failed = true
                Console.error(ErrorLine.render(path: failure.path, location: nil, message: failure.message))
            }
        }
        return nil
    }
}
