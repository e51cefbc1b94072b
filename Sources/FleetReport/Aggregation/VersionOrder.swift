/// Orders version strings the way people read them: `1.10` after `1.9`, `2.0 (140)` after `2.0 (139)`.
///
/// Digit runs compare as numbers (by length once leading zeros are gone, so a hundred-digit run never overflows),
/// other runs as bytes; equal-reading strings fall back to their bytes so that the order is total.
package enum VersionOrder {
    package static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        var i = 0
        var j = 0
        while i < left.count, j < right.count {
            let leftDigit = isDigit(left[i])
            let rightDigit = isDigit(right[j])
            if leftDigit != rightDigit { return leftDigit }
            let leftEnd = runEnd(left, from: i, digits: leftDigit)
            let rightEnd = runEnd(right, from: j, digits: rightDigit)
            let order =
                leftDigit
                ? compareNumbers(left[i..<leftEnd], right[j..<rightEnd])
                : compareBytes(left[i..<leftEnd], right[j..<rightEnd])
            if order != 0 { return order < 0 }
            i = leftEnd
            j = rightEnd
        }
        if (left.count - i) != (right.count - j) { return left.count - i < right.count - j }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func runEnd(_ bytes: [UInt8], from start: Int, digits: Bool) -> Int {
        var end = start
        while end < bytes.count, isDigit(bytes[end]) == digits { end += 1 }
        return end
    }

    private static func compareNumbers(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Int {
        let left = lhs.drop { $0 == 0x30 }
        let right = rhs.drop { $0 == 0x30 }
        if left.count != right.count { return left.count < right.count ? -1 : 1 }
        return compareBytes(left, right)
    }

    private static func compareBytes(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Int {
        for (a, b) in zip(lhs, rhs) where a != b { return a < b ? -1 : 1 }
        if lhs.count != rhs.count { return lhs.count < rhs.count ? -1 : 1 }
        return 0
    }
}
