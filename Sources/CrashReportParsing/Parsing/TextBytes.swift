import APMInspectCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A window on the UTF-8 bytes of a report: the text reader's unit of work.
///
/// Frame, image and register lines are read on bytes because grapheme-aware `Character` work cost several times
/// more than the rest of the parse. The window is only valid while the buffer it points into is (inside one
/// `withUTF8` call); values that outlive it are copied out as `String`s. Offsets given to and returned by the
/// methods are relative to the window's start; every access is bounds-checked against the window.
struct TextBytes {
    private let buffer: UnsafeBufferPointer<UInt8>
    private let lower: Int
    private let upper: Int

    /// The whole buffer.
    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer = buffer
        self.lower = 0
        self.upper = buffer.count
    }

    private init(_ buffer: UnsafeBufferPointer<UInt8>, _ lower: Int, _ upper: Int) {
        self.buffer = buffer
        self.lower = lower
        self.upper = upper
    }

    var count: Int { upper - lower }
    /// Where the window lies in the whole buffer.
    var offsets: Range<Int> { lower..<upper }
    var isEmpty: Bool { upper <= lower }
    var first: UInt8? { isEmpty ? nil : buffer[lower] }
    var last: UInt8? { isEmpty ? nil : buffer[upper - 1] }

    /// The byte at `offset`; callers check `offset < count` first.
    subscript(offset: Int) -> UInt8 { buffer[lower + offset] }

    /// The bytes from `start` to `end` (relative, clamped to the window).
    func slice(_ start: Int, _ end: Int) -> TextBytes {
        let from = lower + min(max(start, 0), count)
        let to = lower + min(max(end, start, 0), count)
        return TextBytes(buffer, from, to)
    }

    func dropFirst(_ n: Int = 1) -> TextBytes { slice(n, count) }
    func dropLast(_ n: Int = 1) -> TextBytes { slice(0, count - n) }
    func prefix(_ n: Int) -> TextBytes { slice(0, n) }
    func suffix(from start: Int) -> TextBytes { slice(start, count) }

    /// The text as a `String` (invalid UTF-8 repaired the standard way).
    var string: String { String(decoding: UnsafeBufferPointer(rebasing: buffer[lower..<upper]), as: UTF8.self) }

    // MARK: - Spaces

    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    @inline(__always)
    func droppingLeadingBlanks() -> TextBytes {
        var start = lower
        while start < upper, Self.isBlank(buffer[start]) { start += 1 }
        return TextBytes(buffer, start, upper)
    }

    @inline(__always)
    func droppingTrailingBlanks() -> TextBytes {
        var end = upper
        while end > lower, Self.isBlank(buffer[end - 1]) { end -= 1 }
        return TextBytes(buffer, lower, end)
    }

    /// Without leading and trailing spaces and tabs.
    @inline(__always)
    func trimmed() -> TextBytes { droppingLeadingBlanks().droppingTrailingBlanks() }

    /// The trimmed text as a `String`.
    var trimmedString: String { trimmed().string }

    // MARK: - Comparison and search

    func hasPrefix(_ text: StaticString) -> Bool {
        text.withUTF8Buffer { pattern in
            guard pattern.count <= count else { return false }
            for k in 0..<pattern.count where buffer[lower + k] != pattern[k] { return false }
            return true
        }
    }

    func hasSuffix(_ text: StaticString) -> Bool {
        text.withUTF8Buffer { pattern in
            guard pattern.count <= count else { return false }
            let start = upper - pattern.count
            for k in 0..<pattern.count where buffer[start + k] != pattern[k] { return false }
            return true
        }
    }

    func equals(_ text: StaticString) -> Bool {
        text.utf8CodeUnitCount == count && hasPrefix(text)
    }

    /// True when the window holds exactly `other`.
    func equals(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard other.count == count else { return false }
        for k in 0..<count where buffer[lower + k] != other[k] { return false }
        return true
    }

    func firstIndex(of byte: UInt8, from start: Int = 0) -> Int? {
        // memchr (through the shared byte search) is vectorised: lines and searches cost a fraction of a byte loop.
        let window = UnsafeBufferPointer(rebasing: buffer[lower..<upper])
        return UTF8Search.firstOffset(of: byte, in: window, from: max(start, 0))
    }

    func lastIndex(of byte: UInt8) -> Int? {
        var i = upper - 1
        while i >= lower {
            if buffer[i] == byte { return i - lower }
            i -= 1
        }
        return nil
    }

    /// The first occurrence of `text` at or after `start`.
    func range(of text: StaticString, from start: Int = 0) -> Range<Int>? {
        text.withUTF8Buffer { pattern -> Range<Int>? in
            guard let head = pattern.first else { return start..<start }
            var from = max(start, 0)
            while let i = firstIndex(of: head, from: from), i + pattern.count <= count {
                var k = 1
                while k < pattern.count, buffer[lower + i + k] == pattern[k] { k += 1 }
                if k == pattern.count { return i..<(i + pattern.count) }
                from = i + 1
            }
            return nil
        }
    }

    /// The last occurrence of `text`.
    func lastRange(of text: StaticString) -> Range<Int>? {
        text.withUTF8Buffer { pattern -> Range<Int>? in
            guard let head = pattern.first else { return count..<count }
            var i = upper - pattern.count
            while i >= lower {
                if buffer[i] == head {
                    var k = 1
                    while k < pattern.count, buffer[i + k] == pattern[k] { k += 1 }
                    if k == pattern.count { return (i - lower)..<(i - lower + pattern.count) }
                }
                i -= 1
            }
            return nil
        }
    }

    func contains(_ text: StaticString) -> Bool { range(of: text) != nil }

    /// ``contains(_:)`` found from the pattern's byte at `anchor`: candidates are that byte's occurrences, so a
    /// byte rare in the text makes the search one `memchr` pass instead of a call per occurrence of the first byte.
    func contains(_ text: StaticString, anchor: Int) -> Bool {
        text.withUTF8Buffer { pattern -> Bool in
            guard anchor >= 0, anchor < pattern.count else { return contains(text) }
            var from = anchor
            while let i = firstIndex(of: pattern[anchor], from: from) {
                let start = i - anchor
                if start + pattern.count > count { return false }
                var k = 0
                while k < pattern.count, buffer[lower + start + k] == pattern[k] { k += 1 }
                if k == pattern.count { return true }
                from = i + 1
            }
            return false
        }
    }

    func allSatisfy(_ predicate: (UInt8) -> Bool) -> Bool {
        var i = lower
        while i < upper {
            if !predicate(buffer[i]) { return false }
            i += 1
        }
        return true
    }

    /// How many leading bytes are ASCII digits.
    var leadingDigitCount: Int {
        var i = lower
        while i < upper, Self.isDigit(buffer[i]) { i += 1 }
        return i - lower
    }

    // MARK: - Numbers

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// True when every byte is a hex digit (also for an empty window); eight bytes at a time.
    var isAllHexDigits: Bool {
        var i = lower
        if let base = buffer.baseAddress {
            while i + 8 <= upper {
                guard ASCIIDigits.isHexWord(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) else {
                    return false
                }
                i += 8
            }
        }
        while i < upper {
            guard Self.isHexDigit(buffer[i]) else { return false }
            i += 1
        }
        return true
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
        ASCIIDigits.unsigned(UnsafeBufferPointer(rebasing: buffer[lower..<upper]), radix: radix)
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
    var startsWith0x: Bool { count >= 2 && buffer[lower] == 0x30 && buffer[lower + 1] == 0x78 }

    /// `0x1a2b`, `1a2b` with `hex: true`, or decimal text, as ``HexValue/init(parsing:hex:)`` reads it.
    func hexValue(hex: Bool = false) -> HexValue? {
        HexValue(parsingBytes: UnsafeBufferPointer(rebasing: buffer[lower..<upper]), hex: hex)
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
        array.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[lower..<upper]))
    }

    /// The text lower-cased (ASCII) without dashes, written straight into a new `String`.
    func lowercasedWithoutDashes() -> String {
        let window = UnsafeBufferPointer(rebasing: buffer[lower..<upper])
        return String(unsafeUninitializedCapacity: window.count) { output in
            // The output is never longer than the window, so `written` stays below its count.
            var written = 0
            for byte in window where byte != 0x2D {
                output[written] = byte &- 0x41 < 26 ? byte | 0x20 : byte
                written += 1
            }
            return written
        }
    }
}
