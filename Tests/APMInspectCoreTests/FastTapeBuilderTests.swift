import ByteAccess
import PropertyBased
import Testing

@testable import APMInspectCore

/// The strict builder is the fast path for every JSON document: on valid JSON it must build exactly the tape the
/// repairing builder builds, and it must never accept what the repairing builder would have to repair.
@Suite struct FastTapeBuilderTests {
    /// A random JSON text: nested containers, escaped strings, every number shape, literals, random whitespace.
    private static func document(_ seed: inout UInt64, depth: Int = 0) -> String {
        func next(_ bound: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 33) % bound
        }
        let spaces = ["", " ", "\n  ", "\t", "\r\n"]
        func space() -> String { spaces[Int(next(UInt64(spaces.count)))] }
        let strings = ["", "a", "imageOffset", "caf\\u00e9", "\\\"q\\\"", "\\/usr\\/lib", "é漢", "x\\\\y", "\\n\\t"]
        let numbers = ["0", "7", "-1", "12345678901234567890", "1.5", "-0.25e+3", "2E-2", "0e0", "1e10"]
        switch depth < 4 ? next(8) : next(4) + 4 {
        case 0, 1:
            let count = Int(next(5))
            let members = (0..<count).map { _ in
                "\"\(strings[Int(next(UInt64(strings.count)))])\"\(space()):\(space())\(document(&seed, depth: depth + 1))"
            }
            return "{" + space() + members.joined(separator: space() + "," + space()) + space() + "}"
        case 2, 3:
            let count = Int(next(6))
            let elements = (0..<count).map { _ in document(&seed, depth: depth + 1) }
            return "[" + space() + elements.joined(separator: "," + space()) + space() + "]"
        case 4: return "\"" + strings[Int(next(UInt64(strings.count)))] + "\""
        case 5: return numbers[Int(next(UInt64(numbers.count)))]
        case 6: return ["true", "false", "null"][Int(next(3))]
        default: return "\"" + strings[Int(next(UInt64(strings.count)))] + "\""
        }
    }

    private static func fastTape(_ bytes: [UInt8], maxDepth: Int = 128, opaqueDepth: Int = Int.max) -> [NodeShape]? {
        bytes.withUnsafeBytes { buffer in
            var builder = JSONFastTapeBuilder(
                bytes: BorrowedBytes(unsafeBytes: buffer),
                maxDepth: maxDepth,
                opaqueDepth: opaqueDepth
            )
            defer { builder.nodes.release() }
            return builder.build() ? builder.nodes.toArray().map(NodeShape.init) : nil
        }
    }

    private static func repairingTape(_ bytes: [UInt8]) -> (tape: [NodeShape], clean: Bool)? {
        bytes.withUnsafeBytes { buffer in
            var builder = JSONTapeBuilder(bytes: BorrowedBytes(unsafeBytes: buffer), options: JSONParseOptions())
            defer { builder.nodes.release() }
            guard let root = try? builder.build() else { return nil }
            return (builder.nodes.toArray().map(NodeShape.init), root == 1 && builder.diagnostics.isEmpty)
        }
    }

    /// Numbers whose value the builder kept on the node: exactly the value their digits decode to.
    private static func smallIntegersAreRight(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var builder = JSONFastTapeBuilder(bytes: BorrowedBytes(unsafeBytes: buffer), maxDepth: 128)
            defer { builder.nodes.release() }
            guard builder.build() else { return true }
            return builder.nodes.toArray().allSatisfy { node in
                guard node.flags & JSONNode.smallIntegerFlag != 0 else { return true }
                let value = bytes.withBorrowedBytes {
                    JSONNumberDecoding.uint64($0.slice(Int(node.start)..<Int(node.end)))
                }
                return node.kind == .number && value == UInt64(node.count)
            }
        }
    }

    @Test func smallIntegersKeepTheirValue() throws {
        for text in ["1", "[999999999, 1000000000, 12, 0, 7, 10, -5, 3.0]", #"{"a":123456789}"#] {
            #expect(Self.smallIntegersAreRight(Array(text.utf8)))
        }
        let document = try JSONDocument(text: "[999999999, 1000000000, 4294967296, 42, -42, 4.5]")
        #expect(document.root.elements.map(\.uint64) == [999_999_999, 1_000_000_000, 4_294_967_296, 42, nil, nil])
        #expect(document.root.elements.map(\.int64) == [999_999_999, 1_000_000_000, 4_294_967_296, 42, -42, nil])
        let unsafe = document.root.withBorrowedValue { list in
            var values: [UInt64?] = []
            list.forEachElement { element in
                values.append(element.uint64)
                return true
            }
            return values
        }
        #expect(unsafe == [999_999_999, 1_000_000_000, 4_294_967_296, 42, nil, nil])
    }

    @Test func validDocumentsBuildTheRepairingBuildersTape() async {
        await propertyCheck(input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var state = UInt64(seed)
            let bytes = Array((Self.spaces(seed) + Self.document(&state) + Self.spaces(seed / 7)).utf8)
            let fast = Self.fastTape(bytes)
            let repaired = Self.repairingTape(bytes)
            #expect(fast != nil)
            #expect(repaired?.clean == true)
            #expect(fast == repaired?.tape)
            #expect(Self.smallIntegersAreRight(bytes))
        }
    }

    private static func spaces(_ seed: Int) -> String { ["", " ", "\n", " \t "][seed % 4] }

    /// Damaged documents: whatever the strict builder accepts, the repairing builder reads cleanly the same way.
    @Test func acceptsNothingThatNeedsRepair() async {
        let alphabet: [UInt8] = Array(#"{}[]:,"\ 0123456789.-+eEtrufalsn"#.utf8) + [0x0A, 0xC3, 0xA9]
        let bytes = Gen.int(in: 0...(alphabet.count - 1)).map { alphabet[$0] }.array(of: 1...40)
        await propertyCheck(input: bytes) { bytes in
            guard let fast = Self.fastTape(bytes) else { return }
            let repaired = Self.repairingTape(bytes)
            #expect(repaired?.clean == true)
            #expect(fast == repaired?.tape)
        }
        // Documents cut at every byte of a valid one: only the whole one is accepted.
        var state: UInt64 = 42
        let whole = Array(Self.document(&state).utf8)
        for cut in 0..<whole.count {
            let prefix = Array(whole[0..<cut])
            if let fast = Self.fastTape(prefix) {
                #expect(Self.repairingTape(prefix)?.clean == true)
                #expect(fast == Self.repairingTape(prefix)?.tape)
            }
        }
    }

    @Test func depthLimitsAndOpaqueContainersAsBefore() {
        let nested = Array("[[[[1]]]]".utf8)
        #expect(Self.fastTape(nested, maxDepth: 5) != nil)
        #expect(Self.fastTape(nested, maxDepth: 4) == nil)
        #expect(Self.fastTape(Array("1".utf8), maxDepth: 0) != nil)
        #expect(Self.fastTape(Array("[]".utf8), maxDepth: 1) == nil)
        // From depth 2 on, containers are one opaque node each; the rest of the tape is unchanged.
        let text = Array(#"{"a":{"b":[1,2]},"c":[{"d":3}],"e":4}"#.utf8)
        let opaque = Self.fastTape(text, opaqueDepth: 2)
        #expect(opaque?.count == 8)
        #expect(opaque?.map(\.kind) == [1, 0, 2, 0, 2, 1, 2, 3])
        #expect(Self.fastTape(Array(#"{"a":[1,2}"#.utf8), opaqueDepth: 2) == nil)
    }
}
