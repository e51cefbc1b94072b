/// Well-formed UTF-8, by Unicode's table of well-formed byte sequences (3-7): no overlong forms, no surrogates,
/// nothing past U+10FFFF.
///
/// The one check for code that must find where text stops being UTF-8 rather than repair it (the terminal escaper,
/// which shows each byte that is not; the Charles XML reader, which says where the first one is).
@usableFromInline
package enum UTF8Sequence {
    /// The length of the well-formed sequence starting at `index` of `bytes` (an index of the collection, not an
    /// offset from its start), or 0 when none starts there.
    @inlinable
    package static func length<Bytes: RandomAccessCollection<UInt8>>(at index: Int, in bytes: Bytes) -> Int
    where Bytes.Index == Int {
        guard index >= bytes.startIndex, index < bytes.endIndex else { return 0 }
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch bytes[index] {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return 0
        }
        guard bytes.endIndex - index >= length, (low...high).contains(bytes[index + 1]) else { return 0 }
        for k in 2..<length where bytes[index + k] & 0xC0 != 0x80 { return 0 }
        return length
    }
}
