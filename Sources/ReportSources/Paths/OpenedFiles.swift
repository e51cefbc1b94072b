import APMInspectCore
import Foundation

/// Paths kept as bytes, for a reader that takes several `String` paths at once.
///
/// A name that is not UTF-8 cannot be a `String`: it is opened by its bytes and held open while the reader runs,
/// named `/proc/self/fd/N` (as ``RawPath/withOpenablePath(_:)`` does for one file), and ``shown(_:)`` puts the
/// escaped name back into what the reader says.
package final class OpenedFiles {
    /// The paths to hand to the reader, in order; a file that could not be opened is left out.
    package private(set) var paths: [String] = []
    /// The files that could not be opened, by their shown name.
    package private(set) var failures: [(path: String, message: String)] = []
    /// Each stand-in path with the name it stands for, longest first so `/proc/self/fd/1` never replaces part of
    /// `/proc/self/fd/12`.
    private var standIns: [(path: String, shown: String)] = []
    private var descriptors: [Int32] = []

    package init(_ files: [RawPath]) {
        for file in files {
            guard !file.isUTF8 else {
                paths.append(file.display)
                continue
            }
            // Non-blocking, so a FIFO with such a name cannot hang the open.
            let fd = file.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
            guard fd >= 0 else {
                failures.append((file.display, "cannot open: \(String(cString: strerror(errno)))"))
                continue
            }
            descriptors.append(fd)
            paths.append("/proc/self/fd/\(fd)")
            standIns.append(("/proc/self/fd/\(fd)", file.display))
        }
        standIns.sort { $0.path.count > $1.path.count }
    }

    deinit {
        for fd in descriptors { close(fd) }
    }

    /// `text` with every stand-in path replaced by the shown name of its file.
    package func shown(_ text: String) -> String {
        var text = text
        for standIn in standIns where text.contains(standIn.path) {
            text = text.replacingOccurrences(of: standIn.path, with: standIn.shown)
        }
        return text
    }
}
