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
