import ByteAccess
import Synchronization

/// The offsets where lines start in one buffer, found on the first lookup and kept.
///
/// A reader asks for the line and column of every problem it reports. Scanning from the start for each made a
/// document with n problems cost n times its size: a 160 KB JetsamEvent with 80,000 mistyped values took 14 s,
/// a 4 MB one hours. With the index each lookup is a binary search.
@usableFromInline
package final class LineStartIndex: Sendable {
    private let starts = Mutex<[Int]?>(nil)

    @usableFromInline
    package init() {}

    /// The location of `byteOffset` in `buffer`, which must be the buffer every call passes.
    @usableFromInline
    package func location(in buffer: BorrowedBytes, byteOffset: Int) -> SourceLocation {
        let offset = max(0, min(byteOffset, buffer.count))
        let lineStarts = starts.withLock { cached in
            if let cached { return cached }
            let found = Self.lineStarts(of: buffer)
            cached = found
            return found
        }
        // The last line start at or before `offset` (lineStarts[0] is 0).
        var low = 0
        var high = lineStarts.count
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle }
        }
        return SourceLocation(byteOffset: offset, line: low + 1, column: offset - lineStarts[low] + 1)
    }

    /// The location of `byteOffset` in `bytes`.
    @usableFromInline
    package func location(in bytes: [UInt8], byteOffset: Int) -> SourceLocation {
        bytes.withBorrowedBytes { location(in: $0, byteOffset: byteOffset) }
    }

    /// 0, then the offset after every line feed (found with `memchr`, which runs at memory speed).
    private static func lineStarts(of buffer: BorrowedBytes) -> [Int] {
        var result = [0]
        var position = 0
        while let newline = buffer.firstIndex(of: 0x0A, from: position) {
            result.append(newline + 1)
            position = newline + 1
        }
        return result
    }
}
