/// Fixed-width reads from a Mach-O file's bytes at checked offsets, in the byte order of the structure being read.
///
/// Every read returns nil rather than trapping when it would leave the file, so a reader turns a hostile offset
/// into an error with its location instead of a crash. Offsets are `Int`; callers convert a file's 32- or 64-bit
/// field with ``MachOBytes/offset(_:)`` which refuses values that do not fit.
struct MachOBytes: Sendable {
    let bytes: [UInt8]

    var count: Int { bytes.count }

    /// The 4 bytes at `offset` as a `UInt32`, little-endian when `littleEndian`, or nil past the end.
    func u32(at offset: Int, littleEndian: Bool) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let raw = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        return littleEndian ? UInt32(littleEndian: raw) : UInt32(bigEndian: raw)
    }

    /// The 8 bytes at `offset` as a `UInt64`, or nil past the end.
    func u64(at offset: Int, littleEndian: Bool) -> UInt64? {
        guard offset >= 0, offset <= bytes.count - 8 else { return nil }
        let raw = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        return littleEndian ? UInt64(littleEndian: raw) : UInt64(bigEndian: raw)
    }

    /// The byte at `offset`, or nil past the end.
    func u8(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return bytes[offset]
    }

    /// A fixed-size name field (segment and section names: 16 bytes, NUL-padded, not always NUL-terminated).
    func name(at offset: Int, width: Int) -> String? {
        guard offset >= 0, width >= 0, offset <= bytes.count - width else { return nil }
        let field = bytes[offset..<(offset + width)]
        let end = field.firstIndex(of: 0) ?? field.endIndex
        return String(decoding: field[field.startIndex..<end], as: UTF8.self)
    }

    /// A copy of `count` bytes at `offset`, or nil when any of them lies outside the file.
    func copy(at offset: Int, count: Int) -> [UInt8]? {
        guard let end = Self.end(offset, count), end <= bytes.count else { return nil }
        return Array(bytes[offset..<end])
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
