import APMInspectCore
import ByteAccess
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A private temporary file that sorted runs are appended to and read back from.
///
/// Made by ``TemporaryFiles/makeUnlinkedFile(in:prefix:)``: it has no name from the start, so it is gone when the
/// last copy of the ledger or sort that holds it is released, whatever ends the process, and nothing lands beside
/// the inputs. Appends are serialised, so copies of a struct that share the file never write over each other.
final class SpillFile: Sendable {
    private let fd: Int32
    /// Bytes written so far, and whether a write or read failed (the results that needed it are incomplete).
    private let state = Mutex<(end: Int, failed: Bool)>((0, false))

    /// - Throws: ``InputError`` when the file cannot be created (the caller keeps its data in memory).
    init(directory: String?) throws(InputError) {
        fd = try TemporaryFiles.makeUnlinkedFile(in: directory, prefix: "apm-inspect-ledger")
    }

    deinit {
        close(fd)
    }

    /// True once a write or a read failed.
    var failed: Bool { state.withLock { $0.failed } }

    /// Appends `bytes` and returns where they are; nil when the write failed (a full disk).
    func append(_ bytes: [UInt8]) -> Range<Int>? {
        state.withLock { state -> Range<Int>? in
            guard !state.failed else { return nil }
            let start = state.end
            guard TemporaryFiles.writeAll(fd, bytes) else {
                state.failed = true
                return nil
            }
            state.end += bytes.count
            return start..<state.end
        }
    }

    /// The bytes of `range` as appended; nil when they cannot be read back.
    func read(_ range: Range<Int>) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < range.count {
            let offset = range.lowerBound + done
            let n = buffer.fillBytes(at: done, count: range.count - done) { pread(fd, $0, $1, off_t(offset)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                state.withLock { $0.failed = true }
                return nil
            }
            done += n
        }
        return buffer
    }
}
