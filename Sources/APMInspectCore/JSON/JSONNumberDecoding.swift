/// Converts a JSON number's digits to fixed-width integers without going through `Double`.
@usableFromInline
enum JSONNumberDecoding {
    @inlinable
    static func uint64(_ bytes: [UInt8], start: Int, end: Int) -> UInt64? {
        guard start < end, end <= bytes.count else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> UInt64? in
            var value: UInt64 = 0
            var i = start
            while i < end {
                let c = buffer[i]
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(c - UInt8(ascii: "0")))
                if overflow1 || overflow2 { return nil }
                value = sum
                i += 1
            }
            return value
        }
    }

    @inlinable
    static func int64(_ bytes: [UInt8], start: Int, end: Int) -> Int64? {
        guard start < end, end <= bytes.count else { return nil }
        if bytes[start] == UInt8(ascii: "-") {
            guard let magnitude = uint64(bytes, start: start + 1, end: end) else { return nil }
            if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return -Int64(magnitude)
        }
        guard let value = uint64(bytes, start: start, end: end), value <= UInt64(Int64.max) else { return nil }
        return Int64(value)
    }
}
