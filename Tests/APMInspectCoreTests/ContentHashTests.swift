import APMInspectCore
import Testing

/// The FNV-1a reference values (the algorithm's published test vectors) and the 16-digit spelling.
@Suite struct ContentHashTests {
    @Test func matchesTheFNV1aReferenceValues() {
        #expect(ContentHash.of([]) == 0xcbf2_9ce4_8422_2325)
        #expect(ContentHash.of(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(ContentHash.of(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
    }

    @Test func isSpelledAsSixteenDigitsAndReadBack() {
        #expect(ContentHash.text(0x0a) == "000000000000000a")
        #expect(ContentHash.text(.max) == "ffffffffffffffff")
        #expect(ContentHash.value("000000000000000a") == 0x0a)
        #expect(ContentHash.value("a") == nil)
        #expect(ContentHash.value("zzzzzzzzzzzzzzzz") == nil)
        #expect(ContentHash.value("+00000000000000a") == nil)
        #expect(ContentHash.value("000000000000000A") == nil)
    }
}
