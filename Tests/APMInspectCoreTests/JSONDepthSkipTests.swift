import Testing

@testable import APMInspectCore

/// `skipsTooDeep`: a container nested past the limit is skipped with a located warning, and the rest of the
/// document is read, on the strict fast path and on the lenient one alike.
@Suite struct JSONDepthSkipTests {
    /// `{"keep":1,"deep":{"a":{"a":…1…}},"after":2}` with `levels` objects under `deep`; `tail` goes before the
    /// closing brace (a trailing comma sends the bytes to the lenient builder).
    static func document(levels: Int, tail: String = "") -> String {
        let deep = String(repeating: "{\"a\":", count: levels) + "1" + String(repeating: "}", count: levels)
        return "{\"keep\":1,\n\"deep\":\(deep),\n\"after\":2\(tail)}"
    }

    static let options = JSONParseOptions(maxDepth: 16, skipsTooDeep: true)

    @Test(arguments: ["", ","])
    func tooDeepContainersAreSkippedAndTheRestIsRead(tail: String) throws {
        let text = Self.document(levels: 40, tail: tail)
        let document = try JSONDocument(text: text, options: Self.options)
        #expect(document.root["keep"]?.int64 == 1)
        #expect(document.root["after"]?.int64 == 2)
        #expect(document.depthCuts.count == 1)
        let cut = try #require(document.depthCuts.first)
        #expect(cut.severity == .warning)
        #expect(cut.location?.line == 2)
        // Sixteen levels are read, the 17th is skipped: below `deep` (level 2), 14 levels.
        var element = try #require(document.root["deep"])
        var levels = 0
        while let inner = element["a"], inner.kind == .object, !inner.isOpaque {
            levels += 1
            element = inner
        }
        #expect(levels == 14)
        #expect(element["a"]?.isOpaque == true)
        // Repairs stay apart from the cut: strict input has none.
        #expect(document.diagnostics.isEmpty == tail.isEmpty)
    }

    @Test func withoutTheOptionTooDeepIsStillAnError() {
        let error = #expect(throws: InputError.self) {
            try JSONDocument(text: Self.document(levels: 40), options: JSONParseOptions(maxDepth: 16))
        }
        #expect(error?.code == .tooDeep)
    }

    /// A skipped container that the input ends inside is cut there, and the document is truncated.
    @Test func aTooDeepContainerCutByTheEndOfInput() throws {
        let text = "{\"keep\":1,\"deep\":" + String(repeating: "[", count: 5000)
        let document = try JSONDocument(text: text, options: Self.options)
        #expect(document.root["keep"]?.int64 == 1)
        #expect(document.isTruncated)
        #expect(document.depthCuts.count == 1)
    }

    /// Many cuts give a few located warnings and a count, not one finding each.
    @Test func manyCutsAreCounted() throws {
        let deep = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        let text = "[" + Array(repeating: deep, count: 100).joined(separator: ",") + "]"
        let document = try JSONDocument(text: text, options: Self.options)
        #expect(document.root.count == 100)
        #expect(document.depthCuts.count == JSONDepthCuts.maxListed + 1)
        #expect(document.depthCuts.allSatisfy { $0.code == .jsonTooDeepSkipped })
    }
}
