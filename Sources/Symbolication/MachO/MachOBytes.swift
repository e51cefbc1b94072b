import ByteAccess

/// Fixed-width reads from a Mach-O file's bytes at checked offsets, in the byte order of the structure being read.
///
/// Every read returns nil rather than trapping when it would leave the file, so a reader turns a hostile offset
/// into an error with its location instead of a crash. Offsets are `Int`; callers convert a file's 32- or 64-bit
/// field with ``MachOBytes/offset(_:)`` which refuses values that do not fit.
struct MachOBytes: Sendable {
    let bytes: [UInt8]
    /// The file's length: `bytes.count`, or for a read of the headers alone the whole file's, so that range checks
    /// against it read the same either way.
    let count: Int
    /// For a read of the headers alone: the other parts read (each slice's header and load commands); empty when
    /// `bytes` is the whole file.
    let windows: [Window]

    /// A part of the file read apart from its start.
    struct Window: Sendable {
        var start: Int
        var bytes: [UInt8]
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        count = bytes.count
        windows = []
    }

    /// The parts of a file of `count` bytes that were read: its first bytes and `windows`; a read anywhere else
    /// finds nothing, as a read past the end does.
    init(prefix: [UInt8], windows: [Window], count: Int) {
        bytes = prefix
        self.count = max(count, prefix.count)
        self.windows = windows
    }

    /// The same parts and `extra` besides (a read of the headers that goes on to the symbol tables).
    func adding(_ extra: [Window]) -> MachOBytes {
        MachOBytes(prefix: bytes, windows: windows + extra, count: count)
    }

    /// The bytes that hold `width` bytes at `offset` and where they start in them; nil when no part read holds
    /// them all.
    private func region(_ offset: Int, _ width: Int) -> (bytes: [UInt8], at: Int)? {
        guard offset >= 0, width >= 0 else { return nil }
        if offset <= bytes.count - width { return (bytes, offset) }
        for window in windows where offset >= window.start && offset - window.start <= window.bytes.count - width {
            return (window.bytes, offset - window.start)
        }
        return nil
    }

    /// The 4 bytes at `offset` as a `UInt32`, little-endian when `littleEndian`, or nil past the end.
    func u32(at offset: Int, littleEndian: Bool) -> UInt32? {
        guard let (source, at) = region(offset, 4) else { return nil }
        return source.withBorrowedBytes { $0.uint32(at: at, bigEndian: !littleEndian) }
    }

    /// The 8 bytes at `offset` as a `UInt64`, or nil past the end.
    func u64(at offset: Int, littleEndian: Bool) -> UInt64? {
        guard let (source, at) = region(offset, 8) else { return nil }
        return source.withBorrowedBytes { $0.uint64(at: at, bigEndian: !littleEndian) }
    }

    /// The byte at `offset`, or nil past the end.
    func u8(at offset: Int) -> UInt8? {
        guard let (source, at) = region(offset, 1) else { return nil }
        return source[at]
    }

    /// A fixed-size name field (segment and section names: 16 bytes, NUL-padded, not always NUL-terminated).
    func name(at offset: Int, width: Int) -> String? {
        guard let (source, at) = region(offset, width) else { return nil }
        let field = source[at..<(at + width)]
        let end = field.firstIndex(of: 0) ?? field.endIndex
        return String(decoding: field[field.startIndex..<end], as: UTF8.self)
    }

    /// A copy of `count` bytes at `offset`, or nil when any of them lies outside the file.
    func copy(at offset: Int, count: Int) -> [UInt8]? {
        guard let (source, at) = region(offset, count) else { return nil }
        return Array(source[at..<(at + count)])
    }

    /// `offset + count` when both are non-negative and the sum does not overflow.
    static func end(_ offset: Int, _ count: Int) -> Int? {
        guard offset >= 0, count >= 0 else { return nil }
        let (sum, overflow) = offset.addingReportingOverflow(count)
        return overflow ? nil : sum
    }

    /// A file's unsigned field as an `Int` offset or size, or nil when it does not fit.
    static func offset(_ value: UInt64) -> Int? {
        value <= UInt64(Int.max) ? Int(value) : nil
    }

    /// The same for a 32-bit field (always fits on the 64-bit hosts this tool runs on, checked all the same).
    static func offset(_ value: UInt32) -> Int? {
        offset(UInt64(value))
    }
}
