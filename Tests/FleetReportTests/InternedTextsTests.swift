import Testing

@testable import FleetReport

@Suite struct InternedTextsTests {
    @Test func equalTextsShareAnIdAcrossTableGrowth() {
        var texts = InternedTexts()
        // Thousands of paths: the table of ids grows several times while ids are given out.
        let paths = (0..<5000).map { "/fleet/batch\($0 % 7)/report-\($0).ips" }
        let ids = paths.map { texts.intern($0) }
        #expect(ids == (0..<5000).map { Int32($0) })
        #expect(paths.map { texts.intern($0) } == ids)
        #expect(texts.count == 5000)
        for (path, id) in zip(paths, ids) { #expect(texts.string(id) == path) }
        #expect(texts.string(-1) == nil)
        #expect(texts.string(5000) == nil)
    }

    @Test func textsRoundTripTheirBytes() {
        var texts = InternedTexts()
        let samples = ["", "?", "名前/クラッシュ.ips", "a\u{0}b", "🧨 boom", String(repeating: "x", count: 4096)]
        let ids = samples.map { texts.intern($0) }
        #expect(ids == samples.indices.map { Int32($0) })
        for (sample, id) in zip(samples, ids) {
            #expect(Array(texts.string(id)?.utf8 ?? "".utf8) == Array(sample.utf8))
        }
        #expect(texts.equals(ids[1], "?"))
        #expect(!texts.equals(ids[0], "?"))
        #expect(!texts.equals(-1, "?"))
    }

    /// Ids follow `String` equality, as the dictionary they replace did: canonically equal texts are one text.
    @Test func canonicallyEqualTextsShareAnId() {
        var texts = InternedTexts()
        let composed = texts.intern("/fleet/Jos\u{E9}.ips")
        #expect(texts.intern("/fleet/Jose\u{301}.ips") == composed)
        let kelvin = texts.intern("\u{212A}ernel")
        #expect(texts.intern("Kernel") == kelvin)
        #expect(texts.string(kelvin) == "Kernel")
        let ascii = texts.intern("Kat")
        #expect(texts.intern("\u{212A}at") == ascii)
        #expect(texts.intern("\r\n") != texts.intern("\r"))
        #expect(texts.count == 5)
    }

    @Test func ranksFollowByteOrderNotArrival() {
        var texts = InternedTexts()
        let samples = ["kscrash", "crashReport", "metrickit", "Z", "z", "é", "a/b", "a", "ab", "a\u{0}"]
        for sample in samples { _ = texts.intern(sample) }
        let ranks = texts.ranks()
        let expected = samples.indices.sorted { samples[$0].utf8.lexicographicallyPrecedes(samples[$1].utf8) }
        #expect(ranks.count == samples.count)
        for (position, index) in expected.enumerated() { #expect(ranks[index] == position) }
    }
}
