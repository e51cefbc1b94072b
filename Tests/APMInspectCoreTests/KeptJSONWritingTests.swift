import FuzzReplaySupport
import Testing

@testable import APMInspectCore

/// Kept JSON written straight from a parsed document's tape (`JSONObjectWriter.write(_:_: JSONElement)`, and
/// `KeptJSONMembers` holding elements) must give the bytes its materialized value gives, in both layouts, at any
/// depth, whatever the text held: escaped, repeated and non-ASCII keys, numbers Swift cannot hold, broken UTF-8,
/// and repairs of a cut or sloppy document.
@Suite struct KeptJSONWritingTests {
    /// A value written from the tape, and as its made value.
    private struct Direct: JSONDirectEncodable {
        var element: JSONElement
        var asValue: Bool
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(element.materialized, forKey: .value)
        }
        enum CodingKeys: String, CodingKey { case value }
        func writeJSONMembers(into object: inout JSONObjectWriter) {
            if asValue { object.write("value", element.materialized) } else { object.write("value", element) }
        }
    }

    /// Kept members holding elements and values, and the dictionary of values they stand for.
    private struct Members: JSONDirectEncodable {
        var kept: KeptJSONMembers
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kept.wrappedValue, forKey: .members)
        }
        enum CodingKeys: String, CodingKey { case members }
        func writeJSONMembers(into object: inout JSONObjectWriter) { object.write("members", kept) }
    }

    private static let keys = [
        #""b""#, #""a""#, #""a""#, #""\u0061""#, #""functionName""#, #""url""#, #""lineNumber""#, #""é""#,
        #""e\u0301""#, "\"e\u{301}\"", #""""#, #""A""#, #""aa""#, #""key with space""#, #""\"q\"""#, "\"\u{7F}\"",
        "\"\\ud83d\\ude00\"",
    ]
    private static let numbers = [
        "0", "-0", "7", "123456789", "1234567890", "-12", "1.50", "1e3", "-1e-400", "1e400", "9223372036854775807",
        "9223372036854775808", "18446744073709551616", "0.1", "2.5E-3",
    ]
    private static let strings: [[UInt8]] = [
        Array(#""""#.utf8), Array(#""plain""#.utf8), Array(#""tab\there""#.utf8), Array(#""\u00e9\/\\""#.utf8),
        Array("\"é😀\"".utf8), [0x22, 0xC3, 0x22], [0x22, 0xFF, 0x61, 0x22], Array(#""\ud800""#.utf8),
        Array("\"\u{1}\u{1F}\"".utf8), Array(#""https://api.example.com/app.js""#.utf8),
    ]

    private static func value(_ random: inout SeededGenerator, depth: Int) -> [UInt8] {
        switch random.below(depth < 4 ? 8 : 5) {
        case 0: return Array(random.pick(numbers).utf8)
        case 1: return random.pick(strings)
        case 2: return Array(random.pick(["true", "false", "null"]).utf8)
        case 3: return random.pick(strings)
        case 4: return Array(random.pick(numbers).utf8)
        case 5:
            let elements = (0..<random.below(5)).map { _ in value(&random, depth: depth + 1) }
            return Array("[".utf8) + Array(elements.joined(separator: Array(",".utf8))) + Array("]".utf8)
        default:
            let members = (0..<random.below(7)).map { _ in
                let colon = Array((random.chance() ? ":" : " : ").utf8)
                return Array(random.pick(keys).utf8) + colon + value(&random, depth: depth + 1)
            }
            return Array("{".utf8) + Array(members.joined(separator: Array(",".utf8))) + Array("}".utf8)
        }
    }

    private static func expectSame(_ element: JSONElement, _ context: String) throws {
        for pretty in [false, true] {
            let encoder = SortedJSONEncoder(pretty: pretty)
            for depth in 0...2 {
                let direct = try encoder.encode(Direct(element: element, asValue: false), depth: depth)
                let reference = try encoder.encode(Direct(element: element, asValue: true), depth: depth)
                #expect(direct == reference, "\(context) pretty \(pretty) depth \(depth)")
                let tree = try encoder.encodeThroughTree(Direct(element: element, asValue: true), depth: depth)
                #expect(direct == tree, "\(context) pretty \(pretty) depth \(depth) (tree)")
            }
        }
    }

    @Test func randomDocumentsWriteAsTheirValues() throws {
        var random = SeededGenerator(seed: 0x6B65_7074)
        var checked = 0
        for round in 0..<600 {
            let text = Self.value(&random, depth: 0)
            guard let document = try? JSONDocument(bytes: text) else { continue }
            try Self.expectSame(document.root, "round \(round): \(String(decoding: text, as: UTF8.self))")
            checked += 1
        }
        // Most random texts are valid JSON (broken UTF-8 and all): the check must not pass by parsing none.
        #expect(checked > 500)
    }

    /// Objects of more plain ASCII keys than the insertion sort takes, repeated keys among them.
    @Test func largeObjectsWriteAsTheirValues() throws {
        var random = SeededGenerator(seed: 0x6C61_7267)
        let names = ["id", "url", "a", "b", "aa", "Z", "type", "stack", "callFrames", "x1", "x10", "x2", ""]
        for round in 0..<100 {
            let members = (0..<(17 + random.below(30))).map { k in
                "\"\(random.pick(names))\":\(k)"
            }
            let text = Array(("{" + members.joined(separator: ",") + "}").utf8)
            let document = try JSONDocument(bytes: text)
            try Self.expectSame(document.root, "round \(round)")
        }
    }

    @Test func repairedDocumentsWriteAsTheirValues() throws {
        var random = SeededGenerator(seed: 0x7265_7061)
        var repaired = 0
        for round in 0..<300 {
            var text = Self.value(&random, depth: 0)
            // Cut short, a comma dropped or doubled, a comment: the lenient parser's repairs are on the tape.
            switch random.below(3) {
            case 0: text = Array(text.prefix(random.below(text.count + 1)))
            case 1:
                if let comma = text.firstIndex(of: UInt8(ascii: ",")) { text.insert(UInt8(ascii: ","), at: comma) }
            default: text = Array("// kept\n".utf8) + text
            }
            guard let document = try? JSONDocument(bytes: text) else { continue }
            if !document.diagnostics.isEmpty { repaired += 1 }
            try Self.expectSame(document.root, "round \(round): \(String(decoding: text, as: UTF8.self))")
        }
        #expect(repaired > 100)
    }

    @Test func opaqueContainersWriteAsTheirValues() throws {
        let text = Array(#"{"b":{"x":[1,2,{"é":"v"}]},"a":[{"k":1}],"c":"s"}"#.utf8)
        let document = try JSONDocument(bytes: text, options: JSONParseOptions(opaqueDepth: 2))
        let opaque = try #require(document.root.member("b"))
        #expect(opaque.isOpaque)
        try Self.expectSame(document.root, "opaque members")
        try Self.expectSame(try opaque.expanded(), "expanded")
    }

    @Test func keptMembersWriteAsTheirDictionary() throws {
        var random = SeededGenerator(seed: 0x6D65_6D62)
        for round in 0..<200 {
            var kept = KeptJSONMembers()
            for _ in 0..<random.below(6) {
                let key = random.pick(["_initiator", "_priority", "response._transferSize", "é", "e\u{301}", "", "a"])
                let text = Self.value(&random, depth: 1)
                guard let document = try? JSONDocument(bytes: text) else { continue }
                kept[key] = random.chance() ? .element(document.root) : .value(document.root.materialized)
            }
            for pretty in [false, true] {
                let encoder = SortedJSONEncoder(pretty: pretty)
                let direct = try encoder.encode(Members(kept: kept), depth: 1)
                let tree = try encoder.encodeThroughTree(Members(kept: kept), depth: 1)
                #expect(direct == tree, "round \(round) pretty \(pretty)")
            }
            let made = kept.madeValues
            #expect(made == kept)
            #expect(made.members.values.allSatisfy { if case .value = $0 { true } else { false } })
        }
    }

    @Test func mergeKeepsTheWinnersMember() throws {
        let document = try JSONDocument(bytes: Array(#"{"x":1,"y":2}"#.utf8))
        var left = KeptJSONMembers(wrappedValue: ["a": .string("left"), "b": .string("only left")])
        var right = KeptJSONMembers()
        right["a"] = .element(try #require(document.root.member("x")))
        right["c"] = .element(try #require(document.root.member("y")))
        var first = left
        first.merge(right, otherWins: false)
        #expect(first.wrappedValue == ["a": .string("left"), "b": .string("only left"), "c": .number("2")])
        left.merge(right, otherWins: true)
        #expect(left.wrappedValue == ["a": .number("1"), "b": .string("only left"), "c": .number("2")])
    }
}
