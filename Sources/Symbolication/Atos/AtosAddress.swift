import ByteAccess

/// The addresses atos accepts: hexadecimal, `0x` optional, at most 16 digits.
package enum AtosAddress {
    /// Calls `body` with each word of `bytes` (runs between spaces, tabs, carriage returns and newlines), without
    /// making a `String` of each: a hundred thousand addresses on standard input were a tenth of the run.
    package static func forEachWord(
        of bytes: BorrowedBytes,
        _ body: (BorrowedBytes) -> Void
    ) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0a || byte == 0x09 || byte == 0x0d }
        var position = 0
        while position < bytes.count {
            while position < bytes.count, isSpace(bytes[unchecked: position]) { position += 1 }
            let start = position
            while position < bytes.count, !isSpace(bytes[unchecked: position]) { position += 1 }
            if position > start { body(bytes.slice(start..<position)) }
        }
    }

    /// ``parse(_:)-(String)`` of a word given as bytes: plain hexadecimal digits are read in place, anything else
    /// goes through the `String` form, so both accept the same words.
    package static func parse(_ word: BorrowedBytes) -> UInt64? {
        var start = 0
        if word.count > 2, word[unchecked: 0] == UInt8(ascii: "0"), word[unchecked: 1] | 0x20 == UInt8(ascii: "x") {
            start = 2
        }
        var value: UInt64 = 0
        var plain = word.count - start <= 16
        var position = start
        while plain, position < word.count {
            let byte = word[unchecked: position]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt64(byte - UInt8(ascii: "A") + 10)
            default: plain = false
            }
            position += 1
        }
        if plain { return value }
        return parse(word.string)
    }

    /// A hexadecimal address, `0x` optional.
    package static func parse(_ text: String) -> UInt64? {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.count <= 16 else { return nil }
        return UInt64(digits, radix: 16)
    }
}
