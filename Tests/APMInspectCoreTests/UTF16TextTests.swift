import Testing

@testable import APMInspectCore

@Suite struct UTF16TextTests {
    private static func encode(_ text: String, littleEndian: Bool) -> [UInt8] {
        var out: [UInt8] = littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
        for unit in text.utf16 {
            let pair = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            out += littleEndian ? pair : pair.reversed()
        }
        return out
    }

    private static let crash = """
        Incident Identifier: 6A1B2C3D-0000-4000-8000-000000000001
        Hardware Model:      iPhone14,2
        Process:             Lumen [412]
        Exception Type:  EXC_CRASH (SIGABRT) — “quoted” 😀

        """

    @Test(arguments: [true, false])
    func transcodesAWindowsSavedReport(littleEndian: Bool) throws {
        let bytes = Self.encode(Self.crash, littleEndian: littleEndian)
        #expect(ContentSniffer.format(of: bytes) == .binary)
        let text = try #require(UTF16Text(bytes: bytes))
        #expect(text.utf8 == Array(Self.crash.utf8))
        #expect(text.byteOrder == (littleEndian ? .littleEndian : .bigEndian))
        #expect(text.replaced == 0)
        #expect(ContentSniffer.format(of: text.utf8) == .crashText)
        #expect(text.note.hasPrefix("read as UTF-16\(littleEndian ? "LE" : "BE") text"))
    }

    @Test func brokenSurrogatesAndAnOddByteAreReplaced() throws {
        // "a", a lone high surrogate, "b", a lone low surrogate, then one stray byte.
        let bytes: [UInt8] = [0xFF, 0xFE, 0x61, 0, 0x00, 0xD8, 0x62, 0, 0x00, 0xDC, 0x41]
        let text = try #require(UTF16Text(bytes: bytes))
        #expect(String(decoding: text.utf8, as: UTF8.self) == "a\u{FFFD}b\u{FFFD}\u{FFFD}")
        #expect(text.replaced == 3)
        #expect(text.note.contains("3 invalid code units"))
    }

    @Test func otherInputIsLeftAlone() {
        #expect(UTF16Text(bytes: Array("{\"a\":1}".utf8)) == nil)
        #expect(UTF16Text(bytes: [0xFF, 0xFE, 0, 0, 0x61, 0, 0, 0]) == nil)  // UTF-32LE
        #expect(UTF16Text(bytes: [0xFF]) == nil)
        #expect(UTF16Text(bytes: [0xFF, 0xFE])?.utf8 == [])
    }

    @Test func outputStaysWithinOneAndAHalfTimesTheInput() throws {
        let cjk = String(repeating: "記録", count: 50_000)
        let bytes = Self.encode(cjk, littleEndian: true)
        let text = try #require(UTF16Text(bytes: bytes))
        #expect(text.utf8.count <= bytes.count * 3 / 2)
        #expect(text.utf8 == Array(cjk.utf8))
    }
}
