import PropertyBased
import Testing

@testable import APMInspectCore

@Suite struct OpaqueContainerTests {
    /// A byte-by-byte reference for the bracket matcher.
    private func referenceMatch(_ bytes: [UInt8], from start: Int) -> Int? {
        var nesting = 0
        var inString = false
        var i = start
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                if b == UInt8(ascii: "\\") {
                    i += 2
                    continue
                }
                if b == UInt8(ascii: "\"") { inString = false }
                // A raw control byte ends the match: strict JSON strings hold none.
                if b < 0x20 { return nil }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                nesting += 1
            } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                nesting -= 1
                if nesting == 0 { return i + 1 }
            }
            i += 1
        }
        return nil
    }

    @Test func matchingBracketAgreesWithAByteByByteScan() async {
        let alphabet = Array(#"{}[]"\ aYy_:,0"#.utf8) + [0x0A, 0x09, 0x1F]
        let gen = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }.array(of: 0...120)
        await propertyCheck(count: 500, input: gen) { tail in
            let bytes = [UInt8(ascii: "{")] + tail
            let fast = bytes.withUnsafeBytes { JSONScanning.matchingBracket($0, from: 0) }
            #expect(fast == referenceMatch(bytes, from: 0))
        }
    }

    @Test func escapedQuotesAndBracketsInStrings() {
        let text = #"{"a" : "x\"}]{[", "b" : [1, {"c" : "\\"}], "long key without structure at all" : 12345678}tail"#
        let bytes = Array(text.utf8)
        let end = bytes.withUnsafeBytes { JSONScanning.matchingBracket($0, from: 0) }
        #expect(end == bytes.count - 4)
    }

    @Test func opaqueContainersExpandToTheSameValues() throws {
        let text = """
            {
              "top" : 1,
              "list" : [
                {"name" : "a", "deep" : {"x" : [1, 2]}},
                {"name" : "b\\"}", "reason" : "per-process-limit"}
              ]
            }
            """
        var options = JSONParseOptions()
        options.opaqueDepth = 3
        let lazy = try JSONDocument(text: text, options: options)
        let full = try JSONDocument(text: text)
        let entries = Array(try #require(lazy.root["list"]).elements)
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.isOpaque })
        #expect(entries[0].member("name") == nil)
        let expanded = try entries.map { try $0.expanded().materialized }
        let reference = try #require(full.root["list"]).elements.map(\.materialized)
        #expect(expanded == reference)
        #expect(lazy.nodeCount < full.nodeCount)
    }

    @Test func keyProbeMarksOnlyObjectsThatHaveTheKeyAtTheirTop() throws {
        let text = """
            [[{"name" : "a", "deep" : {"reason" : 1}}, {"reason" : "x", "n" : 1}, {"why" : "reason"}, {"reasonable" : 2}]]
            """
        var options = JSONParseOptions()
        options.opaqueDepth = 3
        options.opaqueKeyProbe = "\"reason\""
        let document = try JSONDocument(text: text, options: options)
        let inner = try #require(document.root.elements.first { _ in true })
        let hits = inner.elements.map(\.mayContainProbedKey)
        // The nested key does not count; a string value equal to the key does (callers re-check after expanding).
        #expect(hits == [false, true, true, false])
    }

    @Test func opaqueModeNeverAppliesToRepairedInput() throws {
        var options = JSONParseOptions()
        options.opaqueDepth = 2
        let document = try JSONDocument(text: #"{"a" : [{"b" : 1},], }"#, options: options)
        #expect(!document.diagnostics.isEmpty)
        #expect(document.root["a"]?.isOpaque == false)
        #expect(document.root["a"]?.elements.first { _ in true }?["b"]?.uint64 == 1)
    }
}
