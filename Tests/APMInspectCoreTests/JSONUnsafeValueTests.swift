import PropertyBased
import Testing

@testable import APMInspectCore

/// ``JSONUnsafeValue`` must read every document exactly as ``JSONElement`` does.
@Suite struct JSONUnsafeValueTests {
    /// A value read through both APIs, down to the leaves, for comparison.
    private indirect enum Reading: Equatable {
        case scalar(kind: String, string: String?, raw: String?, uint64: UInt64?, int64: Int64?, bool: Bool?)
        case object(count: Int, members: [String], values: [Reading], probe: Reading?)
        case array(count: Int, elements: [Reading])
    }

    private static func read(_ element: JSONElement) -> Reading {
        switch element.kind {
        case .object:
            var keys: [String] = []
            var values: [Reading] = []
            element.forEachMemberRaw { key, value in
                keys.append(JSONElement.decodedString(rawBytes: key))
                values.append(read(value))
                return true
            }
            return .object(count: element.count, members: keys, values: values, probe: element.member("k").map(read))
        case .array:
            return .array(count: element.count, elements: element.elements.map(read))
        default:
            return .scalar(
                kind: "\(element.kind)",
                string: element.string,
                raw: element.rawText,
                uint64: element.uint64,
                int64: element.int64,
                bool: element.bool
            )
        }
    }

    private static func read(_ value: JSONUnsafeValue) -> Reading {
        switch value.kind {
        case .object:
            var keys: [String] = []
            var values: [Reading] = []
            value.forEachMember { key, member in
                keys.append(key.string ?? "")
                values.append(read(member))
                return true
            }
            return .object(count: value.count, members: keys, values: values, probe: value.member("k").map(read))
        case .array:
            var elements: [Reading] = []
            value.forEachElement { element in
                elements.append(read(element))
                return true
            }
            return .array(count: value.count, elements: elements)
        default:
            return .scalar(
                kind: "\(value.kind)",
                string: value.string,
                raw: value.rawText,
                uint64: value.uint64,
                int64: value.int64,
                bool: value.bool
            )
        }
    }

    private static func agree(_ document: JSONDocument) -> Bool {
        let viaElement = read(document.root)
        let viaView = document.root.withBorrowedValue { read($0) }
        return viaElement == viaView
    }

    @Test func readsLikeElementsOnGeneratedDocuments() async {
        let pieces = [
            #""k""#, #""a\/b""#, #""\u00e9\ud83d\ude00x""#, #""k\u0041""#, "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808", "-0", "1.5e3", "true", "false", "null", "[]", "{}", #""é中""#, "007",
        ]
        let gen = Gen.int(in: 0...(pieces.count - 1)).map { pieces[$0] }.array(of: 0...12)
        await propertyCheck(input: gen, Gen.int(in: 0...3)) { items, shape in
            let text: String
            switch shape {
            case 0: text = "[" + items.joined(separator: ",") + "]"
            case 1:
                text =
                    "{" + items.enumerated().map { #""k\#($0.offset % 3)": \#($0.element)"# }.joined(separator: ",")
                    + "}"
            case 2: text = #"{"k": ["# + items.joined(separator: ",") + #"], "k": {"\u006b": 1}}"#
            default: text = "[" + items.joined(separator: ",")  // truncated: the lenient parser closes it
            }
            guard let document = try? JSONDocument(text: text) else { return }
            #expect(Self.agree(document), "\(text)")
        }
    }

    /// Arbitrary bytes, repaired by the lenient parser, read the same through both APIs and never trap.
    @Test func arbitraryBytesReadLikeElements() async {
        let alphabet: [UInt8] =
            Array(#"{}[]:,"\ 0123456789.-+eEtrufalsnk/u"#.utf8) + [0x0A, 0xE2, 0x80, 0xA6, 0xC2, 0xFF, 0x00]
        let gen = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }.array(of: 0...120)
        await propertyCheck(input: gen) { bytes in
            guard let document = try? JSONDocument(bytes: bytes) else { return }
            #expect(Self.agree(document))
        }
    }

    @Test func stopsWhenTheBodySaysSo() throws {
        let document = try JSONDocument(text: #"{"a": [1, 2, 3], "b": 2, "c": 3}"#)
        var seen = 0
        document.root.withBorrowedValue { root in
            root.forEachMember { _, _ in
                seen += 1
                return false
            }
            root.member("a")?.forEachElement { _ in
                seen += 1
                return seen < 3
            }
        }
        #expect(seen == 3)
    }

    @Test func unescapesAndRepairsLikeBefore() throws {
        let document = try JSONDocument(
            bytes: Array(#"["a\/b\\c\"\n\t\u00e9\ud83d\ude00\ud800x\u12", "\#u{FF}x\/"]"#.utf8) + []
        )
        let strings = document.root.strings
        #expect(strings.first == "a/b\\c\"\n\té😀\u{FFFD}x\\u12")
        let raw = try JSONDocument(bytes: [0x5B, 0x22, 0xFF, 0x5C, 0x2F, 0x22, 0x5D])
        #expect(raw.root.strings == ["\u{FFFD}/"])
    }
}
