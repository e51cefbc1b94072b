import APMInspectCore
import ByteAccess

/// A window on the UTF-8 bytes of a report: the text reader's unit of work.
///
/// Frame, image and register lines are read on bytes because grapheme-aware `Character` work cost several times
/// more than the rest of the parse. The window is only valid while the buffer it points into is (inside one
/// `withUTF8` call); values that outlive it are copied out as `String`s. Offsets given to and returned by the
/// methods are relative to the window's start; every access is bounds-checked against the window.
struct TextBytes {
    /// The window's bytes.
    private let bytes: BorrowedBytes
    /// Where the window starts in the whole buffer.
    private let lower: Int

    /// The whole of `bytes`.
    init(_ bytes: BorrowedBytes) {
        self.bytes = bytes
        self.lower = 0
    }

    private init(_ bytes: BorrowedBytes, _ lower: Int) {
        self.bytes = bytes
        self.lower = lower
    }

    var count: Int { bytes.count }
    /// Where the window lies in the whole buffer.
    var offsets: Range<Int> { lower..<(lower + bytes.count) }
    var isEmpty: Bool { bytes.isEmpty }
    var first: UInt8? { bytes.first }
    var last: UInt8? { bytes.last }

    /// The byte at `offset`; callers check `offset < count` first (0 outside the window).
    subscript(offset: Int) -> UInt8 { bytes[offset] ?? 0 }

    /// The bytes from `start` to `end` (relative, clamped to the window).
    func slice(_ start: Int, _ end: Int) -> TextBytes {
        let from = min(max(start, 0), count)
        let to = min(max(end, start, 0), count)
        return TextBytes(bytes.slice(from..<to), lower + from)
    }

    func dropFirst(_ n: Int = 1) -> TextBytes { slice(n, count) }
    func dropLast(_ n: Int = 1) -> TextBytes { slice(0, count - n) }
    func prefix(_ n: Int) -> TextBytes { slice(0, n) }
    func suffix(from start: Int) -> TextBytes { slice(start, count) }

    /// The text as a `String` (invalid UTF-8 repaired the standard way).
    var string: String { bytes.string }

    // MARK: - Spaces

    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    @inline(__always)
    func droppingLeadingBlanks() -> TextBytes {
        slice(bytes.firstIndex(where: { !Self.isBlank($0) }) ?? count, count)
    }

    @inline(__always)
    func droppingTrailingBlanks() -> TextBytes {
        slice(0, bytes.lastIndex(where: { !Self.isBlank($0) }).map { $0 + 1 } ?? 0)
    }

    /// Without leading and trailing spaces and tabs.
    @inline(__always)
    func trimmed() -> TextBytes { droppingLeadingBlanks().droppingTrailingBlanks() }

    /// The trimmed text as a `String`.
    var trimmedString: String { trimmed().string }

    // MARK: - Comparison and search

    func hasPrefix(_ text: StaticString) -> Bool { bytes.hasPrefix(text) }

    func hasSuffix(_ text: StaticString) -> Bool { bytes.hasSuffix(text) }

    func equals(_ text: StaticString) -> Bool { bytes.equals(text) }

    /// True when the window holds exactly `other`.
    func equals<Other: Collection<UInt8>>(_ other: Other) -> Bool {
        other.count == count && bytes.elementsEqual(other)
    }

    func firstIndex(of byte: UInt8, from start: Int = 0) -> Int? {
        // Eight bytes a step, memchr for long windows: lines and searches cost a fraction of a byte loop.
        bytes.firstIndex(of: byte, from: max(start, 0))
    }

    func lastIndex(of byte: UInt8) -> Int? {
        bytes.lastIndex(of: byte, in: 0..<count)
    }

    /// The first occurrence of `text` at or after `start`.
    func range(of text: StaticString, from start: Int = 0) -> Range<Int>? {
        guard text.utf8CodeUnitCount > 0 else { return start..<start }
        return bytes.firstIndex(of: text, from: max(start, 0)).map { $0..<($0 + text.utf8CodeUnitCount) }
    }

    /// The last occurrence of `text`.
    func lastRange(of text: StaticString) -> Range<Int>? {
        guard text.utf8CodeUnitCount > 0 else { return count..<count }
        return bytes.lastIndex(of: text).map { $0..<($0 + text.utf8CodeUnitCount) }
    }

    func contains(_ text: StaticString) -> Bool { range(of: text) != nil }

    /// ``contains(_:)`` found from the pattern's byte at `anchor`: candidates are that byte's occurrences, so a
    /// byte rare in the text makes the search one `memchr` pass instead of a call per occurrence of the first byte.
    func contains(_ text: StaticString, anchor: Int) -> Bool {
        text.withBorrowedUTF8 { pattern -> Bool in
            guard let key = pattern[anchor] else { return contains(text) }
            var from = anchor
            while let i = firstIndex(of: key, from: from) {
                let start = i - anchor
                if start + pattern.count > count { return false }
                if bytes.matches(pattern, at: start) { return true }
                from = i + 1
            }
            return false
        }
    }

    func allSatisfy(_ predicate: (UInt8) -> Bool) -> Bool {
        bytes.allSatisfy(predicate)
    }

    /// How many leading bytes are ASCII digits.
    var leadingDigitCount: Int {
        bytes.firstIndex(where: { !Self.isDigit($0) }) ?? count
    }

    // MARK: - Numbers

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// True when every byte is a hex digit (also for an empty window); eight bytes at a time.
    var isAllHexDigits: Bool {
        var i = 0
        while let word = bytes.word(at: i) {
            guard ASCIIDigits.isHexWord(word) else { return false }
            i += 8
        }
        return bytes.slice(from: i).allSatisfy(Self.isHexDigit)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
    }

    /// ASCII letters only: report keys are English, and a key with a damaged (replaced) byte is not a key.
    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
    }

    /// Digits in `radix` 10 or 16, with an optional sign, as `UInt64(_:radix:)` reads them; nil on overflow, on
    /// an empty window or on any other byte.
    func unsigned(radix: UInt64 = 10) -> UInt64? {
        ASCIIDigits.unsigned(bytes, radix: radix)
    }

    /// A decimal `Int` with an optional sign, as `Int(_:)` reads it.
    var int: Int? {
        if first == 0x2D {
            guard let magnitude = dropFirst().unsignedWithoutSign(), magnitude <= UInt64(Int.max) + 1 else {
                return nil
            }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        }
        guard let value = unsigned(), value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }

    private func unsignedWithoutSign() -> UInt64? {
        first == 0x2B || first == 0x2D ? nil : unsigned()
    }

    /// True when the text starts with a lower-case `0x`, the only form report writers use for addresses.
    var startsWith0x: Bool { bytes[0] == 0x30 && bytes[1] == 0x78 }

    /// `0x1a2b`, `1a2b` with `hex: true`, or decimal text, as ``HexValue/init(parsing:hex:)`` reads it.
    func hexValue(hex: Bool = false) -> HexValue? {
        HexValue(parsingBytes: bytes, hex: hex)
    }
}

extension TextBytes {
    /// The pieces between runs of spaces and tabs.
    func tokens() -> [TextBytes] {
        var result: [TextBytes] = []
        var k = 0
        while k < count {
            while k < count, Self.isBlank(self[k]) { k += 1 }
            let start = k
            while k < count, !Self.isBlank(self[k]) { k += 1 }
            if k > start { result.append(slice(start, k)) }
        }
        return result
    }

    /// Appends the bytes to `array`.
    func append(to array: inout [UInt8]) {
        bytes.append(to: &array)
    }

    /// The text lower-cased (ASCII) without dashes, written straight into a new `String`.
    func lowercasedWithoutDashes() -> String {
        String(unsafeUninitializedCapacity: bytes.count) { output in
            // The output is never longer than the window, so `written` stays below its count.
            var written = 0
            for byte in bytes where byte != 0x2D {
                output[written] = byte &- 0x41 < 26 ? byte | 0x20 : byte
                written += 1
            }
            return written
        }
    }
}
