/// A 64-bit value shown in hexadecimal, as addresses, registers and codes are written in reports.
///
/// JSON numbers lose precision above 2^53, so the value is encoded as the string `"0x…"`; decoding accepts that
/// string, a decimal string, or a JSON number.
public struct HexValue: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
    public var value: UInt64

    public init(_ value: UInt64) {
        self.value = value
    }

    /// Parses `0x1a2b`, `1a2b` with `hex: true`, or decimal text; nil when it is neither.
    public init?(parsing text: Substring, hex: Bool = false) {
        // Read on the UTF-8 bytes with the grammar of `UInt64(_:radix:)` (an optional sign, then digits of the
        // radix, nil on overflow): the generic standard-library parse over a `Substring` cost more than the rest of
        // decoding an exception.
        var digits = text.utf8[...]
        var radix: UInt64 = hex ? 16 : 10
        if digits.count >= 2, digits.first == 0x30, let x = digits.dropFirst().first, x == 0x78 || x == 0x58 {
            digits = digits.dropFirst(2)
            radix = 16
            guard !digits.isEmpty else { return nil }
        }
        // `-` is accepted as the standard library does for unsigned types: only when the value is zero.
        let negative = digits.first == 0x2D
        if digits.first == 0x2B || negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case 0x30...0x39: digit = UInt64(byte &- 0x30)
            case 0x61...0x66: digit = UInt64(byte &- 0x61 &+ 10)
            case 0x41...0x46: digit = UInt64(byte &- 0x41 &+ 10)
            default: return nil
            }
            guard digit < radix else { return nil }
            let (product, overflow) = value.multipliedReportingOverflow(by: radix)
            let (sum, carry) = product.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = sum
        }
        guard !negative || value == 0 else { return nil }
        self.value = value
    }

    /// `0x` and lower-case hex digits, unpadded.
    public var description: String {
        // Written digit by digit into one small string: concatenating "0x" with `String(_:radix:)` cost several
        // times more, and every address of a report goes through here when it is printed or encoded.
        let digits = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        return String(unsafeUninitializedCapacity: digits + 2) { buffer in
            buffer[0] = UInt8(ascii: "0")
            buffer[1] = UInt8(ascii: "x")
            var rest = value
            for position in stride(from: digits + 1, through: 2, by: -1) {
                let nibble = UInt8(truncatingIfNeeded: rest & 0xF)
                buffer[position] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
                rest >>= 4
            }
            return digits + 2
        }
    }

    public static func < (lhs: HexValue, rhs: HexValue) -> Bool { lhs.value < rhs.value }
}

extension HexValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(UInt64.self) {
            self.value = number
            return
        }
        let text = try container.decode(String.self)
        guard let parsed = HexValue(parsing: Substring(text)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a hex value: \(text)")
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
