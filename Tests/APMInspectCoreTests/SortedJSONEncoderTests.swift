import Foundation
import FuzzReplaySupport
import PropertyBased
import Testing

@testable import APMInspectCore

/// `SortedJSONEncoder` must write exactly what Foundation's `JSONEncoder` writes with the project's options: the
/// JSON output is a contract, and Foundation is the reference it was first written with.
@Suite struct SortedJSONEncoderTests {

    private static let characters: [String] = [
        "a", "b", "Z", "_", "0", "9", " ", "/", "\"", "\\", "\n", "\t", "\r", "\u{1}", "\u{1f}", "\u{7f}", "é",
        "\u{2028}", "😀", "ü", "-", ":", "{", "]",
    ]

    private func string(_ random: inout SeededGenerator) -> String {
        String((0..<random.below(8)).map { _ in Self.characters[random.below(Self.characters.count)] }.joined())
    }

    private func double(_ random: inout SeededGenerator) -> Double {
        switch random.below(6) {
        case 0: return Double(Int64(bitPattern: random.next()) % 1_000_000)
        case 1: return Double(random.below(10_000)) / 64
        case 2: return Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF)
        case 3: return -Double(bitPattern: random.next() & 0x3FFF_FFFF_FFFF_FFFF)
        case 4: return [0.1, 1e15, 1e16, 1e-7, 0.000_1, 123_456_789.125, -0.0, 5e-324, 2.5e21][random.below(9)]
        default: return Double(random.next() % 100_000) * 1e-9
        }
    }

    /// A random value of the project's own JSON type (its `encode(to:)` goes through every kind of container),
    /// with duplicate object keys now and then.
    private func tree(_ random: inout SeededGenerator, depth: Int) -> JSONValue {
        switch random.below(depth > 3 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .number(String(Int64(bitPattern: random.next())))
        case 3: return .number(String(random.next()))
        case 4: return .number(String(double(&random)))
        case 5: return .string(string(&random))
        case 6: return .array((0..<random.below(5)).map { _ in tree(&random, depth: depth + 1) })
        default:
            let keys = (0..<random.below(6)).map { _ in string(&random) }
            return .object(
                (keys + keys.prefix(random.below(2))).map { .init(key: $0, value: tree(&random, depth: depth + 1)) }
            )
        }
    }

    private func foundation(_ value: some Encodable, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func randomValuesMatchFoundationByteForByte() async throws {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var random = SeededGenerator(seed: UInt64(seed))
            let value = JSONValue.object([
                .init(key: "root", value: tree(&random, depth: 0)), .init(key: "list", value: tree(&random, depth: 1)),
            ])
            for pretty in [false, true] {
                let ours = try? SortedJSONEncoder(pretty: pretty).encode(value)
                #expect(ours != nil)
                #expect(ours == (try? foundation(value, pretty: pretty)), "seed \(seed)")
            }
        }
    }

    private struct Frame: Codable {
        var index: Int
        var image: String?
        var address: HexValue?
        var ratio: Float
        var small: UInt8
        var tags: [String]
    }

    /// Nested and super encoders, written by hand the way custom `encode(to:)` implementations do.
    private struct Manual: Encodable {
        enum Keys: String, CodingKey { case a, b, c, inner, list }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            try inner.encode("x", forKey: .c)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode(1)
            var nested = list.nestedContainer(keyedBy: Keys.self)
            try nested.encode(true, forKey: .a)
            try list.encodeNil()
            try container.encode(2, forKey: .b)
            try container.encode(3, forKey: .b)
            try Frame(index: 1, image: nil, address: HexValue(0x1f), ratio: 0.25, small: 7, tags: [])
                .encode(to: container.superEncoder(forKey: .a))
        }
    }

    @Test func modelShapesAndHandWrittenContainersMatch() throws {
        let frames = [
            Frame(index: 0, image: "UIKitCore", address: HexValue(0x1_a2b3_c4d5), ratio: 1.5, small: 255, tags: ["a"]),
            Frame(index: 1, image: nil, address: nil, ratio: 3, small: 0, tags: []),
        ]
        for pretty in [false, true] {
            #expect(try SortedJSONEncoder(pretty: pretty).encode(frames) == foundation(frames, pretty: pretty))
            #expect(try SortedJSONEncoder(pretty: pretty).encode(Manual()) == foundation(Manual(), pretty: pretty))
            #expect(
                try SortedJSONEncoder(pretty: pretty).encode([String: Int]())
                    == foundation([String: Int](), pretty: pretty)
            )
            #expect(try SortedJSONEncoder(pretty: pretty).encode("top") == foundation("top", pretty: pretty))
        }
    }

    @Test func canonicallyEquivalentKeysAreOneMember() throws {
        // "e" + U+0301 and "é" are equal Strings with different bytes, which need not sort next to each other.
        // Foundation keeps one member with the last value, and so must both writers (the streaming one's shortcut for
        // ordered keys once kept both; both kept both when a key sorted between them, and the byte-wise first value
        // when they were neighbours). Foundation writes the first spelling, ours the last: the value is the same.
        struct Spellings: Encodable {
            var keys: [String]
            struct Key: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                for (k, key) in keys.enumerated() { try container.encode(k, forKey: Key(stringValue: key)) }
            }
        }
        let cases: [(keys: [String], values: [Int])] = [
            (["e\u{301}", "é"], [1]), (["a", "e\u{301}", "é", "z"], [0, 2, 3]), (["é", "e\u{301}"], [1]),
            (["é", "b", "e\u{301}", "f"], [1, 2, 3]),
        ]
        for (keys, values) in cases {
            for pretty in [false, true] {
                let ours = try SortedJSONEncoder(pretty: pretty).encode(Spellings(keys: keys))
                #expect(ours == (try SortedJSONEncoder(pretty: pretty).encodeThroughTree(Spellings(keys: keys))))
                let theirs = try foundation(Spellings(keys: keys), pretty: pretty)
                for text in [ours, theirs] {
                    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Int]
                    #expect(parsed?.values.sorted() == values, "\(keys): \(text)")
                    #expect(text.components(separatedBy: ":").count - 1 == values.count, "\(keys): \(text)")
                }
            }
        }
    }

    @Test func nonFiniteNumbersAreWrittenAsNull() throws {
        // docs/json-output.md: JSON has no NaN or infinity; a report's `"cpuTime" : 1e999` must not cost the
        // whole document (Foundation throws for it).
        struct Holder: Encodable {
            var values: [Double]
            var cpuTime: Double
            var load: Float?
        }
        let huge = try #require(Double("1e999"))
        let holder = Holder(values: [1, .nan, -.infinity, 2.5], cpuTime: huge, load: .infinity)
        #expect(try SortedJSONEncoder().encode(holder) == #"{"cpuTime":null,"load":null,"values":[1,null,null,2.5]}"#)
        #expect(try SortedJSONEncoder().encode(Double.nan) == "null")
        let pretty = try SortedJSONEncoder(pretty: true).encode(holder)
        let parsed = try JSONSerialization.jsonObject(with: Data(pretty.utf8)) as? [String: Any]
        #expect(parsed?["cpuTime"] is NSNull)
    }

    @Test func documentsEncodedOneByOneJoinIntoTheArrayLayout() throws {
        struct Envelope: Encodable {
            var file: String
            var values: [Int]
            var nested: [String: [Double]]
        }
        let documents = [
            Envelope(file: "a", values: [1, 2], nested: ["x": [1.5]]),
            Envelope(file: "b", values: [], nested: [:]),
        ]
        let encoder = SortedJSONEncoder(pretty: true)
        let joined =
            try "[\n" + documents.map { "  " + (try encoder.encode($0, depth: 1)) }.joined(separator: ",\n")
            + "\n]"
        #expect(joined == (try encoder.encode(documents)))
    }
}

/// Addresses are written by ``HexValue/description`` digit by digit; it must equal the standard formatting.
@Suite struct HexValueDescriptionTests {
    @Test func descriptionMatchesStandardHexFormatting() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...63), Gen.int(in: Int.min...Int.max)) { shift, bits in
            let value = UInt64(bitPattern: Int64(bits)) >> UInt64(shift)
            #expect(HexValue(value).description == "0x" + String(value, radix: 16))
        }
        #expect(HexValue(0).description == "0x0")
        #expect(HexValue(UInt64.max).description == "0xffffffffffffffff")
    }
}
