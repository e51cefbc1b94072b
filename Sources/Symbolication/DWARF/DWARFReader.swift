import APMInspectCore
import ByteAccess

/// A bounds-checked cursor over one DWARF section's bytes.
///
/// Every read checks the remaining length first and throws ``SymbolicationError`` naming the section and the byte
/// offset, so a damaged section can never make the reader trap or read past its end. The cursor borrows the bytes:
/// it lives only inside the `withBorrowedBytes` scope that made it.
struct DWARFReader {
    let bytes: BorrowedBytes
    let section: DWARFSectionName
    let isLittleEndian: Bool
    /// The current position, 0-based from the start of the section.
    var offset: Int

    init(_ bytes: BorrowedBytes, section: DWARFSectionName, littleEndian: Bool, offset: Int = 0) {
        self.bytes = bytes
        self.section = section
        self.isLittleEndian = littleEndian
        self.offset = offset
    }

    var remaining: Int { offset >= 0 && offset <= bytes.count ? bytes.count - offset : 0 }
    var isAtEnd: Bool { remaining == 0 }

    func error(
        _ message: String,
        at position: Int? = nil,
        code: SymbolicationError.Code = .malformedDWARF
    ) -> SymbolicationError {
        section.error(message, at: position ?? offset, code: code)
    }

    /// Moves to `position`, which must lie inside the section (its end included).
    mutating func seek(to position: Int) throws(SymbolicationError) {
        guard position >= 0, position <= bytes.count else {
            throw error("offset \(position) is outside the section (\(bytes.count) bytes)")
        }
        offset = position
    }

    mutating func skip(_ count: Int) throws(SymbolicationError) {
        guard count >= 0, count <= remaining else {
            throw error("\(count) bytes needed, \(remaining) left")
        }
        offset += count
    }

    mutating func skip(_ count: UInt64) throws(SymbolicationError) {
        guard count <= UInt64(remaining) else {
            throw error("\(count) bytes needed, \(remaining) left")
        }
        offset += Int(count)
    }

    mutating func u8() throws(SymbolicationError) -> UInt8 {
        guard remaining >= 1, let value = bytes[offset] else { throw error("1 byte needed, none left") }
        offset += 1
        return value
    }

    mutating func i8() throws(SymbolicationError) -> Int8 {
        Int8(bitPattern: try u8())
    }

    mutating func u16() throws(SymbolicationError) -> UInt16 {
        UInt16(truncatingIfNeeded: try unsigned(size: 2))
    }

    mutating func u32() throws(SymbolicationError) -> UInt32 {
        UInt32(truncatingIfNeeded: try unsigned(size: 4))
    }

    mutating func u64() throws(SymbolicationError) -> UInt64 {
        try unsigned(size: 8)
    }

    /// An unsigned integer of 1 to 8 bytes in the section's byte order.
    mutating func unsigned(size: Int) throws(SymbolicationError) -> UInt64 {
        guard size >= 1, size <= 8 else { throw error("integer size \(size) is not 1 to 8 bytes") }
        guard remaining >= size, let value = bytes.unsigned(at: offset, size: size, littleEndian: isLittleEndian) else {
            throw error("\(size) bytes needed, \(remaining) left")
        }
        offset += size
        return value
    }

    /// An unsigned LEB128 of at most 10 bytes; bits past 64 must be zero.
    mutating func uleb() throws(SymbolicationError) -> UInt64 {
        var cursor = ByteCursor(bytes, offset: offset)
        do {
            let value = try cursor.readULEB128()
            offset = cursor.offset
            return value
        } catch {
            throw lebError(error)
        }
    }

    /// A signed LEB128 of at most 10 bytes.
    mutating func sleb() throws(SymbolicationError) -> Int64 {
        var cursor = ByteCursor(bytes, offset: offset)
        do {
            let value = try cursor.readSLEB128()
            offset = cursor.offset
            return value
        } catch {
            throw lebError(error)
        }
    }

    private func lebError(_ failure: ByteCursorFailure) -> SymbolicationError {
        switch failure {
        case .overflowingLEB128(let start): error("LEB128 value does not fit 64 bits", at: start)
        case .overlongLEB128(let start): error("LEB128 longer than 10 bytes", at: start)
        case .truncatedLEB128(let start): error("LEB128 runs past the end of the section", at: start)
        case .truncated(_, let start), .unterminated(let start), .outside(let start):
            error("LEB128 runs past the end of the section", at: start)
        }
    }

    /// The bytes of a NUL-terminated string (terminator excluded) as a range of offsets; the cursor moves past the
    /// terminator.
    mutating func cStringRange() throws(SymbolicationError) -> Range<Int> {
        let start = offset
        guard start >= 0, start < bytes.count else { throw error("string runs past the end of the section") }
        guard let end = bytes.firstIndex(of: 0, from: start) else {
            throw error("string has no terminating NUL", at: start)
        }
        offset = end + 1
        return start..<end
    }

    mutating func cString() throws(SymbolicationError) -> String {
        string(in: try cStringRange())
    }

    /// The text of `range`, decoded as UTF-8 with invalid bytes replaced (names are shown, never trusted).
    func string(in range: Range<Int>) -> String {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, !range.isEmpty else { return "" }
        return bytes.slice(range).string
    }

    /// The NUL-terminated string at `position` without moving the cursor; nil when `position` is outside.
    func string(at position: UInt64) -> String? {
        guard position < UInt64(bytes.count) else { return nil }
        var copy = self
        copy.offset = Int(position)
        return try? copy.cString()
    }

    /// A unit or table length: 32-bit, or the 64-bit escape 0xffffffff followed by 8 bytes.
    ///
    /// Returns the length
    /// and the offset size (4 or 8) it implies.
    mutating func initialLength() throws(SymbolicationError) -> (length: UInt64, offsetSize: Int) {
        let first = try u32()
        if first == 0xffff_ffff { return (try u64(), 8) }
        if first >= 0xffff_fff0 { throw error("reserved unit length \(hex(UInt64(first)))", at: offset - 4) }
        return (UInt64(first), 4)
    }
}

/// Lowercase hexadecimal with a `0x` prefix, for messages and output.
func hex(_ value: UInt64) -> String {
    "0x" + String(value, radix: 16)
}
