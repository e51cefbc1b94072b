/// Where in an input a finding or an error applies.
///
/// Any field may be missing: a JSON finding has a key path, a text finding a line and column, and both carry the
/// byte offset when it is known. Lines and columns are 1-based; the byte offset is 0-based.
public struct SourceLocation: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// Offset from the start of the input, for binary formats and tools.
    public var byteOffset: Int?
    /// The 1-based line, for text and JSON inputs.
    public var line: Int?
    /// The 1-based column on ``line``.
    public var column: Int?
    /// The JSON path of the value (`threads[3].frames[0]`), when the input is JSON.
    public var keyPath: String?
    /// Where a finding that covers a stretch of the input ends (its last byte): repairs summed up in one note say
    /// the stretch they lie in, so a reader can tell whether a value it misses fell there.
    public var lastByteOffset: Int?

    /// A location; any part may be unknown.
    package init(
        byteOffset: Int? = nil,
        line: Int? = nil,
        column: Int? = nil,
        keyPath: String? = nil,
        lastByteOffset: Int? = nil
    ) {
        self.byteOffset = byteOffset
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.lastByteOffset = lastByteOffset
    }

    /// Renders `line:col` when known, then the key path and the byte offset, as in `12:5 (processes[3].rpages)`.
    public var description: String {
        var parts: [String] = []
        if let line {
            parts.append(column.map { "\(line):\($0)" } ?? "\(line)")
        }
        if let keyPath {
            parts.append(parts.isEmpty ? keyPath : "(\(keyPath))")
        }
        if parts.isEmpty, let byteOffset {
            parts.append("byte \(byteOffset)")
        }
        return parts.joined(separator: " ")
    }
}
