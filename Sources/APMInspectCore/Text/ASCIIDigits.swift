/// Unsigned integers read from ASCII bytes with the grammar of the standard library's `UInt64(_:radix:)`.
///
/// The report readers parse numbers straight from a file's bytes; going through `String` or `Substring` to reach
/// `UInt64(_:radix:)` allocated and cost more than the rest of reading a frame. One reader keeps the text and the
/// JSON paths agreeing with each other and with the standard library.
public enum ASCIIDigits {
    /// The value of `bytes`: an optional sign (`-` only when the value is zero, as for unsigned types), then one or
    /// more digits of `radix` (upper or lower case); nil on any other byte, on no digits, or on overflow.
    @inlinable
    public static func unsigned(_ bytes: UnsafeBufferPointer<UInt8>, radix: UInt64) -> UInt64? {
        let n = bytes.count
        var i = 0
        let negative = n > 0 && bytes[0] == 0x2D
        if n > 0, bytes[0] == 0x2B || negative { i = 1 }
        guard i < n else { return nil }
        var value: UInt64 = 0
        while i < n {
            let byte = bytes[i]
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte &- 0x30)
            case 0x61...0x7A: digit = UInt64(byte &- 0x61 &+ 10)
            case 0x41...0x5A: digit = UInt64(byte &- 0x41 &+ 10)
            default: return nil
            }
            guard digit < radix else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: radix)
            let (sum, carry) = product.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = sum
            i += 1
        }
        return negative && value != 0 ? nil : value
    }
}
