import ByteAccess

extension String {
    /// The string without leading and trailing spaces, tabs, CR and LF (Foundation-free).
    @usableFromInline
    package func trimmingASCIIWhitespace() -> String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { !Self.isASCIIWhitespace($0) }),
            let last = utf8.lastIndex(where: { !Self.isASCIIWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }

    /// The pieces between occurrences of `separator` (Foundation-free; empty pieces kept).
    @usableFromInline
    package func separated(by separator: String) -> [String] {
        if let pieces = asciiSeparated(by: separator) { return pieces }
        var result: [String] = []
        var rest = self[...]
        while let range = rest.firstRange(of: separator) {
            result.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        result.append(String(rest))
        return result
    }

    /// ``separated(by:)`` by a byte search, when both strings are ASCII without CR (nil otherwise).
    ///
    /// There every byte is one Character, so byte matches are exactly the Character-level matches the general
    /// path finds; a CR may join the LF after it into one Character, and other text may hold combining marks.
    private func asciiSeparated(by separator: String) -> [String]? {
        var text = self
        var separator = separator
        return text.withBorrowedUTF8 { bytes -> [String]? in
            separator.withBorrowedUTF8 { pattern -> [String]? in
                guard !pattern.isEmpty, UTF8Search.isPlainASCII(bytes), UTF8Search.isPlainASCII(pattern) else {
                    return nil
                }
                var result: [String] = []
                var start = 0
                while let found = UTF8Search.firstOffset(of: pattern, in: bytes, from: start) {
                    result.append(bytes.slice(start..<found).string)
                    start = found + pattern.count
                }
                result.append(bytes.slice(from: start).string)
                return result
            }
        }
    }

    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

extension StringProtocol {
    /// True when the UTF-8 bytes of `needle` occur in the string: a plain byte search, much cheaper than the
    /// generic `contains(_:)` for the short ASCII markers parsers look for.
    @inlinable
    @usableFromInline
    package func containsBytes(_ needle: String) -> Bool {
        byteOffset(of: needle) != nil
    }

    /// The UTF-8 offset where `needle` (ASCII, without CR or LF) first occurs as Characters, exactly where
    /// `firstRange(of:)` finds it, or nil.
    ///
    /// In an ASCII string every byte is one Character, so a byte search finds what the Character-level search
    /// finds; that search costs some 40,000 instructions a call (a twentieth of `memory-limits`, which asked four
    /// of them per report). Other strings, where a combining mark may join a needle's last byte to the next, take the
    /// generic path.
    @inlinable
    @usableFromInline
    package func characterOffset(ofASCII needle: String) -> Int? {
        if utf8.allSatisfy({ $0 < 0x80 }) { return byteOffset(of: needle) }
        guard let range = firstRange(of: needle) else { return nil }
        return utf8.distance(from: startIndex, to: range.lowerBound)
    }

    /// `contains(_:)` for a `needle` of ASCII without CR or LF, by ``characterOffset(ofASCII:)``.
    @inlinable
    @usableFromInline
    package func contains(ascii needle: String) -> Bool {
        characterOffset(ofASCII: needle) != nil
    }

    /// The UTF-8 offset of the first occurrence of `needle`, or nil.
    ///
    /// Inlinable so that callers in other modules get a version specialised for their string type instead of the
    /// generic one, which went through the protocol for every byte.
    @inlinable
    @usableFromInline
    package func byteOffset(of needle: String) -> Int? {
        var needle = needle
        return needle.withBorrowedUTF8 { pattern -> Int? in
            if pattern.isEmpty { return 0 }
            let found = utf8.withContiguousBorrowedBytes { bytes in
                UTF8Search.firstOffset(of: pattern, in: bytes, from: 0)
            }
            return found
        }
    }
}

/// Byte searches over UTF-8 buffers, shared by the string helpers and the parsers that scan bytes directly.
@usableFromInline
package enum UTF8Search {
    /// The offset of the first occurrence of `pattern` in `text` at or after `start`, or nil.
    ///
    /// Candidates are the places where the pattern's first two bytes both match, found sixteen positions at a time
    /// with SSE2 compares on x86-64 and eight with word arithmetic elsewhere; only those are compared in full. Searching for the first byte with `memchr` cost a call
    /// per candidate, which for a pattern starting with `/` in a path was a call per path component.
    @usableFromInline
    package static func firstOffset(of pattern: BorrowedBytes, in text: BorrowedBytes, from start: Int) -> Int? {
        text.firstIndex(of: pattern, from: start)
    }

    /// The offset of the first `byte` in `text` at or after `start`, or nil (``ByteAccess/BorrowedBytes``).
    @usableFromInline
    package static func firstOffset(of byte: UInt8, in text: BorrowedBytes, from start: Int) -> Int? {
        guard start >= 0 else { return nil }
        return text.firstIndex(of: byte, from: start)
    }

    /// True when every byte is ASCII and none is a CR: then each byte is one Character.
    @inlinable
    package static func isPlainASCII(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 || byte == 0x0D { return false }
        return true
    }
}

extension StringProtocol {
    /// The range of the first occurrence of `needle`, found by a byte search (see ``byteOffset(of:)``).
    @inlinable
    @usableFromInline
    package func byteRange(of needle: String) -> Range<Index>? {
        guard let offset = byteOffset(of: needle) else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        let upper = utf8.index(lower, offsetBy: needle.utf8.count)
        return lower..<upper
    }
}

extension StringProtocol {
    /// The range of the last occurrence of `needle` (byte search from the end).
    @usableFromInline
    package func byteRangeLast(of needle: String) -> Range<Index>? {
        let pattern = Array(needle.utf8)
        let text = Array(utf8)
        guard !pattern.isEmpty, text.count >= pattern.count else { return nil }
        var i = text.count - pattern.count
        while i >= 0 {
            if text[i] == pattern[0], Array(text[i..<i + pattern.count]) == pattern {
                let lower = utf8.index(utf8.startIndex, offsetBy: i)
                return lower..<utf8.index(lower, offsetBy: pattern.count)
            }
            i -= 1
        }
        return nil
    }
}
