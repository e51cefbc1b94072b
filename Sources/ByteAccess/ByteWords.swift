/// Eight bytes at a time: the word arithmetic the searches and scans share.
@usableFromInline
package enum ByteWords {
    /// The high bit of each byte of `x` that is zero, with no false positives (unlike the borrow trick).
    @inlinable @inline(__always)
    @usableFromInline
    package static func zeroBytes(_ x: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((x & low7) &+ low7) | x | low7)
    }
}
