import ByteAccess

/// Bounds-checked reads from a capture's bytes: every accessor returns nil past the end, so garbage never traps.
///
/// A view remembers where it starts in the view it was cut from (``start``), so a TCP segment's payload can be kept
/// as an offset into the capture, not a copy and not a pointer.
struct ByteView {
    /// The bytes; valid only while the buffer the root view lends is.
    let bytes: BorrowedBytes
    /// Where ``bytes`` starts in the root view (the whole capture for views cut from it).
    let start: Int

    init(_ bytes: BorrowedBytes, start: Int = 0) {
        self.bytes = bytes
        self.start = start
    }

    /// A view of nothing.
    static var empty: ByteView { ByteView(.empty) }

    var count: Int { bytes.count }

    func u8(_ offset: Int) -> UInt8? { bytes[offset] }

    func u16(_ offset: Int, bigEndian: Bool = true) -> UInt16? { bytes.uint16(at: offset, bigEndian: bigEndian) }

    func u32(_ offset: Int, bigEndian: Bool = true) -> UInt32? { bytes.uint32(at: offset, bigEndian: bigEndian) }

    func u24(_ offset: Int) -> Int? {
        bytes.unsigned(at: offset, size: 3, littleEndian: false).map { Int(truncatingIfNeeded: $0) }
    }

    func u64(_ offset: Int, bigEndian: Bool = true) -> UInt64? { bytes.uint64(at: offset, bigEndian: bigEndian) }

    /// The bytes `offset ..< offset + length`, clamped to what exists; nil when `offset` is past the end.
    func slice(_ offset: Int, _ length: Int) -> ByteView? {
        guard offset >= 0, length >= 0, offset <= bytes.count else { return nil }
        let end = Swift.min(bytes.count, offset + Swift.min(length, bytes.count))
        return ByteView(bytes.slice(offset..<end), start: start + offset)
    }

    /// The bytes from `offset` to the end (empty past the end).
    func suffix(from offset: Int) -> ByteView {
        let from = Swift.min(Swift.max(0, offset), bytes.count)
        return ByteView(bytes.slice(from: from), start: start + from)
    }

    var array: [UInt8] { bytes.array }

    /// The bytes as text, invalid UTF-8 repaired.
    var string: String { bytes.string }
}
