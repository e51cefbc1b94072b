/// Comparisons of raw bytes with ASCII literals, for the byte paths that stand in for `Character` work.
extension UnsafeBufferPointer<UInt8> {
    /// True when the bytes are exactly `text`'s.
    func equals(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && matches(text, at: 0)
    }

    func hasPrefix(_ text: StaticString) -> Bool {
        count >= text.utf8CodeUnitCount && matches(text, at: 0)
    }

    func hasSuffix(_ text: StaticString) -> Bool {
        count >= text.utf8CodeUnitCount && matches(text, at: count - text.utf8CodeUnitCount)
    }

    func contains(_ text: StaticString) -> Bool {
        let length = text.utf8CodeUnitCount
        guard length <= count else { return false }
        for start in 0...(count - length) where matches(text, at: start) { return true }
        return false
    }

    /// True when `text`'s bytes stand at `start` (which the callers keep within bounds).
    private func matches(_ text: StaticString, at start: Int) -> Bool {
        text.withUTF8Buffer { pattern in
            guard start >= 0, start + pattern.count <= count else { return false }
            for k in 0..<pattern.count where self[start + k] != pattern[k] { return false }
            return true
        }
    }
}
