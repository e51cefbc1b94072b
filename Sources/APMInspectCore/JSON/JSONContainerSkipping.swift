import ByteAccess

/// The scans a reader that holds only a window of a file uses to step over a JSON value the way a document parsed
/// with ``JSONParseOptions/opaqueDepth`` does, so that the ranges it finds are those the document would record.
package enum JSONContainerSkipping {
    /// The offset just after the bracket that closes the one at `start`, looking only at `bytes[..<limit]`; nil when
    /// the container does not end there, its nesting is too deep, or a string in it holds a raw control byte.
    ///
    /// The opaque parse's own scan (``JSONScanning/matchingBracket(_:from:)``): a window that ends inside the
    /// container gives nil, and the caller widens it and asks again.
    package static func end(in bytes: [UInt8], from start: Int, limit: Int) -> Int? {
        let upper = min(max(0, limit), bytes.count)
        guard start >= 0, start < upper else { return nil }
        return bytes[..<upper].withBorrowedBytes { JSONScanning.matchingBracket($0, from: start) }
    }

    /// True for the four bytes JSON counts as white space.
    @inline(__always)
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The number of line feeds in `bytes[range]` (clamped).
    package static func lineFeeds(in bytes: [UInt8], _ range: Range<Int>) -> (count: Int, last: Int?) {
        let lower = min(max(0, range.lowerBound), bytes.count)
        let upper = min(max(lower, range.upperBound), bytes.count)
        return bytes.withBorrowedBytes { buffer in
            var count = 0
            var last: Int?
            var at = lower
            while at < upper, let hit = buffer.firstIndex(of: 0x0A, in: at..<upper) {
                count += 1
                last = hit
                at = hit + 1
            }
            return (count, last)
        }
    }
}
