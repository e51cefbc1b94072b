import ByteAccess
import PropertyBased
import Testing

@testable import APMInspectCore

/// `JSONNumberDecoding.double` computes short numbers itself instead of through `Double(String)`: it must give
/// the very same `Double` (bit for bit, so the sign of zero too) or nil exactly when `Double(String)` does.
@Suite struct JSONDoubleDecodingTests {
    private static func decoded(_ text: String) -> Double? {
        var text = text
        return text.withBorrowedUTF8 { JSONNumberDecoding.double($0) }
    }

    private static func agrees(_ text: String) -> Bool {
        decoded(text)?.bitPattern == Double(text)?.bitPattern
    }

    /// Number-shaped text: sign, digits, fraction, exponent, each sometimes broken.
    private static let numbers = Gen.int(in: 0...Int(Int32.max)).map { seed -> String in
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        func next(_ n: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(n))
        }
        func digits(_ most: Int) -> String {
            String((0..<next(most + 1)).map { _ in Character(String(next(10))) })
        }
        var text = next(3) == 0 ? "-" : ""
        text += next(4) == 0 ? "0" : digits(18)
        if next(2) == 0 { text += "." + digits(18) }
        if next(3) == 0 { text += ["e", "E"][next(2)] + ["", "+", "-"][next(3)] + digits(3) }
        if next(20) == 0 { text += ["x", " ", "..", "e"][next(4)] }
        return text
    }

    @Test func decodesAsTheStandardLibrary() async {
        await propertyCheck(input: Self.numbers) { text in
            #expect(Self.agrees(text), "\(text)")
        }
    }

    @Test(arguments: [
        "0", "-0", "-0.0", "0.0", "1", "-1", "0.1", "0.3", "1.5", "12.345", "123456789012345", "1234567890123456",
        "999999999999999.9", "0.000000000000000000001", "1e22", "1e23", "1e-22", "1e-23", "9007199254740993",
        "4.9e-324", "1.7976931348623157e308", "1e309", "-1e-400", "0e999", "1.", ".5", "1e", "1e+", "-", "",
        "+1", "01", "00.5", "1E5", "2.5E-3", "1e-7", "123456.789", "250.000001", "0x10", "NaN", "inf",
    ])
    func edgeCasesAgree(_ text: String) {
        #expect(Self.agrees(text), "\(text)")
    }

    @Test func theDirectPathIsTakenForShortNumbers() {
        // The point of the fast path: ordinary figures never reach `Double(String)`.
        for text in ["0", "-0", "12.345", "1e-7", "123456789012345", "0.000001", "1E5"] {
            var copy = text
            #expect(copy.withBorrowedUTF8 { JSONNumberDecoding.fastDouble($0) } != nil, "\(text)")
        }
        for text in ["1234567890123456", "1e23", "1.", "NaN"] {
            var copy = text
            #expect(copy.withBorrowedUTF8 { JSONNumberDecoding.fastDouble($0) } == nil, "\(text)")
        }
    }
}
