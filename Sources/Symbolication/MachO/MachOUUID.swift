/// A binary's LC_UUID: the key that ties a crash report's binary image to its dSYM.
///
/// Reports spell it in two ways (text reports `<4c4c44a955553144a1f65da1eeb71e0f>`, JSON `.ips` files
/// `4c4c44a9-5555-3144-a1f6-5da1eeb71e0f`); both parse to the same value, and it prints the way `dwarfdump --uuid`
/// does, upper case with dashes.
package struct MachOUUID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 16 bytes, in the order the load command stores them.
    package let bytes: [UInt8]

    /// Nil unless `bytes` holds exactly 16 bytes.
    package init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses 32 hexadecimal digits in either case, with or without dashes and surrounding angle brackets; nil for
    /// anything else.
    package init?(string: String) {
        var digits: [UInt8] = []
        for scalar in string.unicodeScalars {
            switch scalar {
            case "-", "<", ">": continue
            case "0"..."9": digits.append(UInt8(scalar.value - 48))
            case "a"..."f": digits.append(UInt8(scalar.value - 87))
            case "A"..."F": digits.append(UInt8(scalar.value - 55))
            default: return nil
            }
            if digits.count > 32 { return nil }
        }
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for index in stride(from: 0, to: 32, by: 2) {
            bytes.append(digits[index] << 4 | digits[index + 1])
        }
        self.bytes = bytes
    }

    /// `4C4C44A9-5555-3144-A1F6-5DA1EEB71E0F`, as `dwarfdump --uuid` and `atos` print it.
    package var description: String {
        let hex = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    package static func < (lhs: MachOUUID, rhs: MachOUUID) -> Bool {
        lhs.bytes.lexicographicallyPrecedes(rhs.bytes)
    }
}
