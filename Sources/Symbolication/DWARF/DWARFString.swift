import ByteAccess

/// A string of the DWARF, kept as where it is rather than as text.
///
/// The index holds the sections anyway, and a name copied per function would let a crafted input (thousands of DIEs naming offsets inside one long string)
/// cost far more memory than its size. Text is made when a lookup needs it.
struct DWARFString: Sendable, Equatable, Hashable {
    enum Section: UInt8, Sendable {
        case info
        case str
        case lineStr
        case line
    }

    var section: Section
    var offset: UInt64

    /// Longest text made of one string; a longer one is cut (no real name or path comes near).
    static let maximumLength = 1 << 16

    /// The NUL-terminated text at the reference in `sections`, at most ``maximumLength`` bytes of it; nil when the
    /// offset is outside its section.
    func text(in sections: DWARFSections) -> String? {
        let bytes: [UInt8]
        switch section {
        case .info: bytes = sections.info
        case .str: bytes = sections.str
        case .lineStr: bytes = sections.lineStr
        case .line: bytes = sections.line
        }
        guard offset < UInt64(bytes.count) else { return nil }
        let start = Int(offset)
        return bytes.withBorrowedBytes { raw in
            let end = min(raw.count, start + Self.maximumLength)
            return raw.slice(start..<(raw.firstIndex(of: 0, in: start..<end) ?? end)).string
        }
    }
}
