import ByteAccess

/// A 64-bit value shown in hexadecimal, as addresses, registers and codes are written in reports.
///
/// JSON numbers lose precision above 2^53, so the value is encoded as the string `"0x…"`; decoding accepts that
/// string, a decimal string, or a JSON number.
public struct HexValue: Sendable, Equatable, Hashable, Comparable, CustomStringConvertible {
    /// The number; JSON writes it as a `0x` hex string, since JSON numbers lose 64-bit precision.
    public var value: UInt64

    @usableFromInline
    package init(_ value: UInt64) {
        self.value = value
    }

    /// Parses `0x1a2b`, `1a2b` with `hex: true`, or decimal text; nil when it is neither.
    @usableFromInline
    package init?(parsing text: Substring, hex: Bool = false) {
        var text = text
        guard let value = text.withBorrowedUTF8({ HexValue(parsingBytes: $0, hex: hex) }) else { return nil }
        self = value
    }

    /// ``init(parsing:hex:)`` on UTF-8 bytes, for readers that hold a file's bytes rather than a `String`.
    @usableFromInline
    package init?(parsingBytes bytes: BorrowedBytes, hex: Bool = false) {
        var digits = bytes
        var radix: UInt64 = hex ? 16 : 10
        if bytes.count >= 2, bytes[0] == 0x30, bytes[1] == 0x78 || bytes[1] == 0x58 {
            digits = bytes.slice(from: 2)
            radix = 16
            // `UInt64(_:radix:)` would read `0x+5`; a bare `0x` is not a value.
            guard !digits.isEmpty else { return nil }
        }
        guard let value = ASCIIDigits.unsigned(digits, radix: radix) else { return nil }
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

    /// A stable order, so sorted output does not depend on the order reports were read in.
    public static func < (lhs: HexValue, rhs: HexValue) -> Bool { lhs.value < rhs.value }
}

extension HexValue: Codable {
    /// Reads the JSON form back, as `encode(to:)` writes it.
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

    /// Writes the JSON form documented in docs/json-output.md.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
