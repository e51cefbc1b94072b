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

    @Test func readsTheUsualShapes() {
        #expect(HexValue(parsing: "0x1a2B")?.value == 0x1a2b)
        #expect(HexValue(parsing: "0X10")?.value == 16)
        #expect(HexValue(parsing: "42")?.value == 42)
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
