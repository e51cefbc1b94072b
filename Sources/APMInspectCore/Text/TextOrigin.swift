/// The place in a file where a slice of it begins, for mapping locations in the slice back to the file.
@usableFromInline
package struct TextOrigin: Sendable, Equatable, Hashable {
    /// Byte offset of the slice's first byte in the file.
    @usableFromInline
    package var byteOffset: Int
    /// Line number (1-based) of the slice's first byte, which must be at the start of that line.
    @usableFromInline
    package var line: Int

    /// The origin of a text that starts `byteOffset` bytes and `line - 1` lines into its file.
    @usableFromInline
    package init(byteOffset: Int = 0, line: Int = 1) {
        self.byteOffset = byteOffset
        self.line = line
    }

    /// Moves a location within the slice to the same place in the file.
    @usableFromInline
    package func shift(_ location: SourceLocation) -> SourceLocation {
        var moved = location
        moved.byteOffset = location.byteOffset.map { $0 + byteOffset }
        moved.lastByteOffset = location.lastByteOffset.map { $0 + byteOffset }
        moved.line = location.line.map { $0 + line - 1 }
        return moved
    }
}
