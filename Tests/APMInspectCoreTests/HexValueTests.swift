import PropertyBased
import Testing

@testable import APMInspectCore

/// ``HexValue/init(parsing:hex:)`` reads bytes itself; it must accept and reject exactly what the standard
/// library's `UInt64(_:radix:)` does after the optional `0x` prefix.
@Suite struct HexValueTests {
    private static let alphabet = Array("0123456789abcdefgABCDEFGxX+- é".utf8)
    private static let texts = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }.array(of: 0...22)
        .map { String(decoding: $0, as: UTF8.self) }

    /// The reading the byte parser replaced, kept as the oracle.
    private static func standardLibrary(_ text: Substring, hex: Bool) -> UInt64? {
        var digits = text
        var radix = hex ? 16 : 10
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            digits = digits.dropFirst(2)
            radix = 16
        }
        guard !digits.isEmpty else { return nil }
        return UInt64(digits, radix: radix)
    }

    @Test func parsesLikeTheStandardLibrary() async {
        await propertyCheck(input: Self.texts) { text in
            for hex in [false, true] {
                #expect(
                    HexValue(parsing: Substring(text), hex: hex)?.value
                        == Self.standardLibrary(Substring(text), hex: hex)
                )
            }
        }
    }

    @Test(arguments: [
        "-0", "+0", "-", "+", "0x+5", "0x-0", "0x-1", "00", "0x0x1", "0xG", "9a", "+-1", "18446744073709551616",
    ])
    func edgeCasesAgree(_ text: String) {
        for hex in [false, true] {
            #expect(
                HexValue(parsing: Substring(text), hex: hex)?.value == Self.standardLibrary(Substring(text), hex: hex)
            )
        }
    }

    /// Hex digits and the bytes around their ranges (and with the high bit set), eight at a time.
    private static let wordBytes =
        Array("0123456789abcdefABCDEF".utf8) + [
            0x00, 0x20, 0x2F, 0x3A, 0x40, 0x47, 0x60, 0x67, 0x7F, 0x80, 0xB0, 0xC1, 0xE6, 0xFF,
        ]
    private static let words = Gen.int(in: 0...(wordBytes.count - 1)).map { wordBytes[$0] }.array(of: 8...8)

    @Test func hexWordReadsEightDigitsLikeTheDigitLoop() async {
        await propertyCheck(input: Self.words) { bytes in
            var word: UInt64 = 0
            for (k, byte) in bytes.enumerated() { word |= UInt64(byte) << (8 * UInt64(k)) }
            let expected = UInt64(String(decoding: bytes, as: UTF8.self), radix: 16)
            // Only digits and letters count: `UInt64(_:radix:)` would also take a sign, which a word never has.
            let allHex = bytes.allSatisfy { Self.wordBytes.prefix(22).contains($0) }
            #expect(ASCIIDigits.hexWord(word) == (allHex ? expected : nil))
        }
    }

    @Test func readsTheUsualShapes() {
        #expect(HexValue(parsing: "0x1a2B")?.value == 0x1a2b)
        #expect(HexValue(parsing: "0X10")?.value == 16)
        #expect(HexValue(parsing: "42")?.value == 42)
        #expect(HexValue(parsing: "0x00000001e3d0e42c")?.value == 0x1_e3d0_e42c)
        #expect(HexValue(parsing: "0xFFFFFFFFFFFFFFFF")?.value == UInt64.max)
        #expect(HexValue(parsing: "0x1FFFFFFFFFFFFFFFF") == nil)
        #expect(HexValue(parsing: "0x0000000000000000001")?.value == 1)
        #expect(HexValue(parsing: "0x00000001e3d0e4g2") == nil)
        #expect(HexValue(parsing: "ff", hex: true)?.value == 255)
        #expect(HexValue(parsing: "+7")?.value == 7)
        #expect(HexValue(parsing: "ff") == nil)
        #expect(HexValue(parsing: "0x") == nil)
        #expect(HexValue(parsing: "") == nil)
        #expect(HexValue(parsing: "-1") == nil)
        #expect(HexValue(parsing: "0xffffffffffffffff")?.value == UInt64.max)
        #expect(HexValue(parsing: "0x10000000000000000") == nil)
    }
}
