extension String {
    /// The string without leading and trailing spaces, tabs, CR and LF (Foundation-free).
    public func trimmingASCIIWhitespace() -> String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { !Self.isASCIIWhitespace($0) }),
            let last = utf8.lastIndex(where: { !Self.isASCIIWhitespace($0) })
        else { return "" }
        return String(self[first...last])
    }

    /// The pieces between occurrences of `separator` (Foundation-free; empty pieces kept).
    public func separated(by separator: String) -> [String] {
        var result: [String] = []
        var rest = self[...]
        while let range = rest.firstRange(of: separator) {
            result.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        result.append(String(rest))
        return result
    }

    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

extension StringProtocol {
    /// True when the UTF-8 bytes of `needle` occur in the string: a plain byte search, much cheaper than the
    /// generic `contains(_:)` for the short ASCII markers parsers look for.
    public func containsBytes(_ needle: String) -> Bool {
        byteOffset(of: needle) != nil
    }

    /// The UTF-8 offset of the first occurrence of `needle`, or nil.
    public func byteOffset(of needle: String) -> Int? {
        var needle = needle
        return needle.withUTF8 { pattern -> Int? in
            guard let first = pattern.first else { return 0 }
            let found = self.utf8.withContiguousStorageIfAvailable { text -> Int? in
                Self.search(text, pattern, first)
            }
            if let found { return found }
            return Self.search(Array(self.utf8).withUnsafeBufferPointer { Array($0) }, pattern, first)
        }
    }

    private static func search(
        _ text: UnsafeBufferPointer<UInt8>,
        _ pattern: UnsafeBufferPointer<UInt8>,
        _ first: UInt8
    ) -> Int? {
        guard text.count >= pattern.count else { return nil }
        let last = text.count - pattern.count
        var i = 0
        while i <= last {
            if text[i] == first {
                var k = 1
                while k < pattern.count, text[i + k] == pattern[k] { k += 1 }
                if k == pattern.count { return i }
            }
            i += 1
        }
        return nil
    }

    private static func search(_ text: [UInt8], _ pattern: UnsafeBufferPointer<UInt8>, _ first: UInt8) -> Int? {
        text.withUnsafeBufferPointer { search($0, pattern, first) }
    }
}

extension StringProtocol {
    /// The range of the first occurrence of `needle`, found by a byte search (see ``byteOffset(of:)``).
    public func byteRange(of needle: String) -> Range<Index>? {
        guard let offset = byteOffset(of: needle) else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        let upper = utf8.index(lower, offsetBy: needle.utf8.count)
        return lower..<upper
    }
}

extension StringProtocol {
    /// The range of the last occurrence of `needle` (byte search from the end).
    public func byteRangeLast(of needle: String) -> Range<Index>? {
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
