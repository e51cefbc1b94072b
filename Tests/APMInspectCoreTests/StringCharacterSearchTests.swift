import PropertyBased
import Testing

@testable import APMInspectCore

/// ``StringProtocol/contains(ascii:)`` and ``StringProtocol/characterOffset(ofASCII:)`` take a byte search where it
/// is exact; they must agree with the Character-level search everywhere, combining marks and CR LF included.
@Suite struct StringCharacterSearchTests {
    private static let pieces = [
        "xnu-", "x", "nu", "-", "hack", "ed", "\u{301}", "é", "\r", "\n", "\r\n", "7195.", " ",
    ]
    private static let texts = Gen.int(in: 0...(pieces.count - 1)).map { pieces[$0] }.array(of: 0...12)
    private static let needles = ["xnu-", "hacked", "x", "ed", "nu-7"]

    @Test func agreesWithTheCharacterSearch() async {
        await propertyCheck(input: Self.texts) { pieces in
            let text = pieces.joined()
            for needle in Self.needles {
                let expected = text.firstRange(of: needle).map {
                    text.utf8.distance(from: text.startIndex, to: $0.lowerBound)
                }
                #expect(text.characterOffset(ofASCII: needle) == expected, "\(text.debugDescription) \(needle)")
                #expect(text.contains(ascii: needle) == text.contains(needle), "\(text.debugDescription) \(needle)")
            }
        }
    }

    @Test func aCombiningMarkAfterTheNeedleHidesIt() {
        #expect(!"xhacked\u{301}".contains(ascii: "hacked"))
        #expect("hacked kernel".contains(ascii: "hacked"))
        #expect("root:xnu-7195.40".characterOffset(ofASCII: "xnu-") == 5)
    }
}
