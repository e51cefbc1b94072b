import PropertyBased
import Testing

@testable import APMInspectCore

/// ``UTF8Search/firstOffset(of:in:from:)`` finds candidates sixteen (SSE2) or eight positions at a time; it must find
/// exactly what a position-by-position search finds.
@Suite struct UTF8SearchTests {
    /// Few distinct bytes, so patterns occur often, overlap, and sit across word boundaries.
    private static let alphabet = Array("/.ab\u{0}".utf8) + [0x80, 0xFF]
    private static let texts = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }.array(of: 0...300)
    private static let patterns = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }.array(of: 1...4)

    private static func reference(_ pattern: [UInt8], _ text: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, start >= 0, text.count - start >= pattern.count else { return nil }
        return (start...(text.count - pattern.count)).first { Array(text[$0..<($0 + pattern.count)]) == pattern }
    }

    @Test func findsWhatAPositionByPositionSearchFinds() async {
        await propertyCheck(input: Self.texts, Self.patterns, Gen.int(in: 0...280)) { text, pattern, start in
            let found = text.withBorrowedBytes { textBytes in
                pattern.withBorrowedBytes { UTF8Search.firstOffset(of: $0, in: textBytes, from: start) }
            }
            #expect(found == Self.reference(pattern, text, from: start))
        }
    }

    @Test func findsPathComponents() {
        let path = "/private/var/containers/Bundle/Application/B8B6D8FE/Parcelly.app/Parcelly"
        #expect(path.byteOffset(of: "/Bundle/Application/") == 23)
        #expect(path.containsBytes(".app/"))
        #expect(!"/usr/lib/system/libsystem_kernel.dylib".containsBytes("/Bundle/Application/"))
        #expect("ab".byteOffset(of: "ab") == 0)
        #expect("a".byteOffset(of: "ab") == nil)
    }
}
