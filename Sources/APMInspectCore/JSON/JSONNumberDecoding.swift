/// Converts a JSON number's digits to fixed-width integers without going through `Double`.
@usableFromInline
enum JSONNumberDecoding {
    @inlinable
    static func uint64(_ bytes: [UInt8], start: Int, end: Int) -> UInt64? {
        guard start >= 0, start < end, end <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { uint64(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    @inlinable
    static func int64(_ bytes: [UInt8], start: Int, end: Int) -> Int64? {
        guard start >= 0, start < end, end <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { int64(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    /// The digits as an unsigned integer; nil when empty, not all digits, or past `UInt64.max`.
    @inlinable
    static func uint64(_ digits: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        // Up to 19 digits cannot overflow, so they need no overflow checks.
        if digits.count <= 19 {
            var value: UInt64 = 0
            for c in digits {
                let digit = c &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value &* 10 &+ UInt64(digit)
            }
            return value
        }
        var value: UInt64 = 0
        for c in digits {
            let digit = c &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return value
    }

    /// The text as a signed integer (optional leading `-`); nil when it is not an integer that fits.
    @inlinable
    static func int64(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let first = text.first else { return nil }
        if first == UInt8(ascii: "-") {
            guard let magnitude = uint64(UnsafeBufferPointer(rebasing: text[1...])) else { return nil }
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return -Int64(magnitude)
        }
        guard let value = uint64(text), value <= UInt64(Int64.max) else { return nil }
        return Int64(value)
    }
}
