import ByteAccess

/// Unsigned integers read from ASCII bytes with the grammar of the standard library's `UInt64(_:radix:)`.
///
/// The report readers parse numbers straight from a file's bytes; going through `String` or `Substring` to reach
/// `UInt64(_:radix:)` allocated and cost more than the rest of reading a frame. One reader keeps the text and the
/// JSON paths agreeing with each other and with the standard library.
@usableFromInline
package enum ASCIIDigits {
    /// The value of `bytes`: an optional sign (`-` only when the value is zero, as for unsigned types), then one or
    /// more digits of `radix` (upper or lower case); nil on any other byte, on no digits, or on overflow.
    @inlinable
    @usableFromInline
    package static func unsigned(_ bytes: BorrowedBytes, radix: UInt64) -> UInt64? {
        let n = bytes.count
        var i = 0
        let negative = n > 0 && bytes[0] == 0x2D
        if n > 0, bytes[0] == 0x2B || negative { i = 1 }
        guard i < n else { return nil }
        var value: UInt64 = 0
        // The first 16 hex or 19 decimal digits cannot overflow: only longer numbers need checked arithmetic, and
        // report numbers (addresses, offsets) are never longer. A shift, or a multiply by a constant, keeps the
        // loop's dependency chain short.
        if radix == 16 {
            let safeEnd = min(n, i + 16)
            // Eight digits at a time while eight remain (a 16-digit address is two words), then one by one.
            while i + 8 <= safeEnd, let word = bytes.word(at: i) {
                guard let chunk = hexWord(word) else { return nil }
                value = value << 32 | chunk
                i += 8
            }
            while i < safeEnd {
                guard let byte = bytes[i], let digit = digit(byte), digit < 16 else { return nil }
                value = value << 4 | digit
                i += 1
            }
        } else if radix == 10 {
            let safeEnd = min(n, i + 19)
            while i < safeEnd {
                guard let byte = bytes[i] else { return nil }
                let digit = byte &- 0x30
                guard digit < 10 else { return nil }
                value = value &* 10 &+ UInt64(digit)
                i += 1
            }
        }
        while i < n {
            guard let byte = bytes[i], let digit = digit(byte), digit < radix else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: radix)
            let (sum, carry) = product.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = sum
            i += 1
        }
        return negative && value != 0 ? nil : value
    }

    /// The value of eight hex digits loaded little-endian (the first digit in the lowest byte); nil when any byte
    /// is not `0`–`9`, `a`–`f` or `A`–`F`.
    ///
    /// Every byte is tested and converted at once: a 16-digit address costs two of these instead of 16 rounds of
    /// compare, branch and shift.
    @inlinable
    @usableFromInline
    package static func hexWord(_ word: UInt64) -> UInt64? {
        guard isHexWord(word) else { return nil }
        let ones: UInt64 = 0x0101_0101_0101_0101
        // A digit's value is its low nibble, plus 9 for letters (bit 6 set).
        var nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ ((word >> 6) & ones) &* 9
        // The first digit is the most significant: reverse the bytes, then fold 2, 4 and 8 nibbles together.
        nibbles = nibbles.byteSwapped
        nibbles = (nibbles | nibbles >> 4) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | nibbles >> 8) & 0x0000_FFFF_0000_FFFF
        return (nibbles | nibbles >> 16) & 0xFFFF_FFFF
    }

    /// True when all eight bytes of `word` are `0`–`9`, `a`–`f` or `A`–`F`.
    @inlinable
    @usableFromInline
    package static func isHexWord(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        guard word & high == 0 else { return false }
        // With every byte below 0x80, `(byte | 0x80) - k` keeps its high bit exactly when byte >= k, and
        // `(0x80 | k) - byte` exactly when byte <= k; neither borrows from the next byte.
        let isDigit = ((word | high) &- ones &* 0x30) & ((high | ones &* 0x39) &- word)
        let lower = word | ones &* 0x20
        let isLetter = ((lower | high) &- ones &* 0x61) & ((high | ones &* 0x66) &- lower)
        return (isDigit | isLetter) & high == high
    }

    /// The value of a digit or letter (`a`/`A` is 10 … `z`/`Z` is 35); nil for any other byte.
    @inlinable
    static func digit(_ byte: UInt8) -> UInt64? {
        let decimal = byte &- 0x30
        if decimal < 10 { return UInt64(decimal) }
        // Setting bit 5 folds upper-case letters onto lower-case ones (and moves no other byte into a–z).
        let letter = (byte | 0x20) &- 0x61
        return letter < 26 ? UInt64(letter) + 10 : nil
    }
}
