import ByteAccess

/// Converts byte offsets into 1-based line and column numbers.
@usableFromInline
package enum TextPosition {
    /// The location of `byteOffset` in `buffer`, with its line and column (columns count bytes).
    ///
    /// This scans from the start, so it is meant for the few offsets that end up in diagnostics.
    @usableFromInline
    package static func location(in buffer: BorrowedBytes, byteOffset: Int) -> SourceLocation {
        let offset = max(0, min(byteOffset, buffer.count))
        var line = 1
        var lineStart = 0
        var i = 0
        while i < offset {
            if buffer[unchecked: i] == 0x0A {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return SourceLocation(byteOffset: offset, line: line, column: offset - lineStart + 1)
    }

    /// The location of `byteOffset` in `bytes`.
    @usableFromInline
    package static func location(in bytes: [UInt8], byteOffset: Int) -> SourceLocation {
        bytes.withBorrowedBytes { location(in: $0, byteOffset: byteOffset) }
    }
}
