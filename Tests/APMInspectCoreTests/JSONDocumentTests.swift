import ByteAccess
import PropertyBased
import Testing

@testable import APMInspectCore

@Suite struct JSONDocumentTests {
    @Test func readsNestedValuesStrictly() throws {
        let text = #"{"a" : [1, -2, 3.5e2, true, false, null], "s" : "x\"y\\z\/\u00e9\ud83d\ude00", "o" : {}}"#
        let document = try JSONDocument(text: text, options: .strict)
        let root = document.root
        #expect(root.kind == .object)
        #expect(root.count == 3)
        let array = try #require(root["a"])
        #expect(array.count == 6)
        let values = Array(array.elements)
        #expect(values[0].uint64 == 1)
        #expect(values[1].int64 == -2)
        #expect(values[1].uint64 == nil)
        #expect(values[2].double == 350)
        #expect(values[3].bool == true)
        #expect(values[4].bool == false)
        #expect(values[5].kind == .null)
        #expect(root["s"]?.string == "x\"y\\z/é😀")
        #expect(root["o"]?.count == 0)
        #expect(root["missing"] == nil)
        #expect(document.diagnostics.isEmpty)
    }

    @Test func keepsSixtyFourBitIntegersExact() throws {
        let document = try JSONDocument(
            text: #"{"max": 18446744073709551615, "over": 18446744073709551616, "min": -9223372036854775808}"#
        )
        #expect(document.root["max"]?.uint64 == UInt64.max)
        #expect(document.root["over"]?.uint64 == nil)
        #expect(document.root["min"]?.int64 == Int64.min)
        #expect(document.root["over"]?.materialized == .number("18446744073709551616"))
    }

    @Test(arguments: [
        (#"{"a": 1,}"#, 1, 9),
        (#"{"a": 1 // c"#, 1, 9),
        (#"{"a": [1, 2"#, 1, 11),
        ("{\n  \"a\": 01\n}", 2, 8),
        (#"{"a" 1}"#, 1, 6),
    ])
    func strictModeRejectsWithLocation(text: String, line: Int, column: Int) {
        #expect {
            _ = try JSONDocument(text: text, options: .strict)
        } throws: { error in
            guard let error = error as? InputError else { return false }
            return error.location?.line == line && error.location?.column == column
        }
    }

    @Test func lenientModeRepairsPastedJSON() throws {
        let text = """
            {
              // a comment
              "a" : 1,
              ...
              "b" : [1, 2,],
              "c" : 3
              "d" : 4,
            }
            """
        let document = try JSONDocument(text: text)
        #expect(document.root["a"]?.uint64 == 1)
        #expect(document.root["b"]?.count == 2)
        #expect(document.root["c"]?.uint64 == 3)
        #expect(document.root["d"]?.uint64 == 4)
        let codes = document.diagnostics.map(\.code)
        #expect(codes.contains(.jsonComment))
        #expect(codes.contains(.jsonElision))
        #expect(codes.contains(.jsonTrailingComma))
        #expect(codes.contains(.jsonMissingComma))
        #expect(document.diagnostics.first?.location?.line == 2)
    }

    @Test func truncationClosesContainersAndDropsTheCutValue() throws {
        let document = try JSONDocument(text: #"{"list": [{"a": 1, "b": "cut her"#)
        #expect(document.isTruncated)
        let first = try #require(document.root["list"]?.elements.first(where: { _ in true }))
        #expect(first["a"]?.uint64 == 1)
        #expect(first["b"] == nil)
        #expect(first.isTruncated)
    }

    @Test func fragmentsBecomeAListOfItems() throws {
        let text = """
                "age" : 5,
                "pid" : 7
              },
              {
                "pid" : 8
              }
            ]
            """
        let document = try JSONDocument(text: text)
        #expect(document.isFragmentList)
        let items = Array(document.root.elements)
        #expect(items.count == 2)
        #expect(items[0].isSynthetic)
        #expect(items[0]["pid"]?.uint64 == 7)
        #expect(items[1]["pid"]?.uint64 == 8)
    }

    /// Regression: a stray delimiter in an array once made the lenient parser read the same byte forever.
    @Test(.timeLimit(.minutes(1)), arguments: ["[1,,2]", "[,]", "{\"a\": [,,]}", ",,,", "[1 : 2]", "{\"a\" ::: 1}"])
    func strayDelimitersTerminate(text: String) throws {
        let document = try? JSONDocument(text: text)
        #expect(document == nil || document?.diagnostics.isEmpty == false)
    }

    @Test func newlineInsideAStringEndsIt() throws {
        let document = try JSONDocument(text: "{\"a\" : \"cut\n, \"b\" : 2}")
        #expect(document.root["a"]?.string == "cut")
        #expect(document.root["a"]?.isTruncated == true)
        #expect(document.root["b"]?.uint64 == 2)
    }

    @Test func refusesDeepNestingAndEmptyInput() {
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: InputError.self) { try JSONDocument(text: deep) }
        #expect { try JSONDocument(text: " \n ") } throws: { ($0 as? InputError)?.code == .empty }
        #expect(throws: Never.self) {
            try JSONDocument(text: String(repeating: "[", count: 100) + String(repeating: "]", count: 100))
        }
    }

    @Test func locationsPointIntoTheWholeFile() throws {
        let document = try JSONDocument(
            bytes: Array("{\n // x\n \"a\": 1}".utf8),
            origin: TextOrigin(byteOffset: 100, line: 2)
        )
        let location = try #require(document.diagnostics.first?.location)
        #expect(location.line == 3)
        #expect(location.column == 2)
        #expect(location.byteOffset == 103)
    }

    @Test func materializedKeepsOrderAndNumbersVerbatim() throws {
        let document = try JSONDocument(text: #"{"z": 0.066796999999999995, "a": [1, {"k": null}]}"#)
        #expect(
            document.root.materialized
                == .object([
                    .init(key: "z", value: .number("0.066796999999999995")),
                    .init(key: "a", value: .array([.number("1"), .object([.init(key: "k", value: .null)])])),
                ])
        )
    }

    /// The fast strict builder and the repairing builder must produce the same tape for valid JSON.
    @Test func fastAndRepairingBuildersAgree() async {
        await propertyCheck(
            input: Gen.int(in: 0...1_000_000),
            Gen.int(in: 0...1_000_000),
            Gen.letterOrNumber.string(of: 0...12)
        ) { a, b, word in
            let text = #"{"k\#(word)" : [\#(a), -\#(b), "\#(word)", {"x": [true, null, \#(a).5]}], "e": {}, "f": []}"#
            let bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBytes { buffer -> [JSONNode]? in
                var builder = JSONFastTapeBuilder(bytes: BorrowedBytes(unsafeBytes: buffer), maxDepth: 128)
                defer { builder.nodes.release() }
                return builder.build() ? builder.nodes.toArray() : nil
            }
            let slow = bytes.withUnsafeBytes { buffer -> [JSONNode]? in
                var builder = JSONTapeBuilder(bytes: BorrowedBytes(unsafeBytes: buffer), options: JSONParseOptions())
                defer { builder.nodes.release() }
                guard (try? builder.build()) == 1 else { return nil }
                return builder.nodes.toArray()
            }
            #expect(fast != nil)
            #expect(fast.map { $0.map(NodeShape.init) } == slow.map { $0.map(NodeShape.init) })
        }
    }

    /// No input traps the parser, in either mode.
    @Test func arbitraryBytesNeverTrap() async {
        let alphabet: [UInt8] =
            Array(#"{}[]:,"\ 0123456789.-+eEtrufalsn/*.#"#.utf8) + [0x0A, 0xE2, 0x80, 0xA6, 0xC2, 0xA0, 0x00]
        let gen = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }.array(of: 0...200)
        await propertyCheck(input: gen) { bytes in
            _ = try? JSONDocument(bytes: bytes)
            _ = try? JSONDocument(bytes: bytes, options: .strict)
            if let document = try? JSONDocument(bytes: bytes) {
                _ = document.root.materialized
            }
        }
    }
}

/// The comparable part of a tape node.
struct NodeShape: Equatable {
    var kind: UInt8
    var flags: UInt8
    var start: UInt32
    var end: UInt32
    var next: UInt32
    var count: UInt32

    init(_ node: JSONNode) {
        kind = node.kind.rawValue
        // The fast builder's note of a small integer's value is checked on its own (FastTapeBuilderTests).
        flags = node.flags & ~JSONNode.smallIntegerFlag
        start = node.start
        end = node.end
        next = node.next
        count = node.flags & JSONNode.smallIntegerFlag != 0 ? 0 : node.count
    }
}
