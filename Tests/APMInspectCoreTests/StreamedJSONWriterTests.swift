import Foundation
import Testing

@testable import APMInspectCore

/// The streaming writer behind `SortedJSONEncoder`: output as it is encoded, in fixed memory, with the bytes of the
/// tree writer it replaced, and the hold that keeps a failing value from being half written.
@Suite struct StreamedJSONWriterTests {
    /// Counts what was handed out, so a value can tell whether output left while it was still encoding.
    private final class Output {
        var bytes: [UInt8] = []
        var calls = 0
        var largest = 0
    }

    /// Declared out of key order on purpose: the writer sorts; `frames` is large and must still stream.
    private struct Report: Encodable {
        var zone: String
        var frames: [Frame]
        var attributes: [String: Int]
        var alpha: Double
    }

    private struct Frame: Encodable {
        var symbol: String
        var index: Int
        var address: UInt64
        var offset: Int64
        var probe: Probe?
    }

    /// Records, when it is encoded, how many bytes had been handed out by then.
    private struct Probe: Encodable {
        let output: Output
        let seen: Box

        final class Box {
            var handedOut = -1
        }

        func encode(to encoder: any Encoder) throws {
            seen.handedOut = output.bytes.count
            var container = encoder.singleValueContainer()
            try container.encode(true)
        }
    }

    private func report(frames count: Int, probe: Probe?) -> Report {
        Report(
            zone: "z\"\\\n\u{1}é",
            frames: (0..<count).map { k in
                Frame(
                    symbol: "-[UIApplication _run] + \(k)",
                    index: k,
                    address: UInt64.max - UInt64(k),
                    offset: k.isMultiple(of: 2) ? Int64.min + Int64(k) : Int64(k),
                    probe: k == count - 1 ? probe : nil
                )
            },
            attributes: ["b": 2, "a": 1, "ä": 3, "": 0, "B": -1],
            alpha: -0.0
        )
    }

    @Test func largeValuesAreHandedOutWhileEncodingInChunks() throws {
        let output = Output()
        let seen = Probe.Box()
        let value = report(frames: 20_000, probe: Probe(output: output, seen: seen))
        for pretty in [false, true] {
            output.bytes = []
            output.calls = 0
            output.largest = 0
            try SortedJSONEncoder(pretty: pretty).write(value, suffix: "\n", holdingUpTo: 0, chunk: 4_096) { chunk in
                output.bytes.append(contentsOf: chunk)
                output.calls += 1
                output.largest = max(output.largest, chunk.count)
            }
            let reference = try SortedJSONEncoder(pretty: pretty).encodeThroughTree(value) + "\n"
            #expect(String(decoding: output.bytes, as: UTF8.self) == reference)
            // The last frame was encoded after most of the document had already left: nothing was held whole.
            #expect(seen.handedOut > reference.utf8.count * 9 / 10)
            #expect(output.largest <= 4_096)
            #expect(output.calls > reference.utf8.count / 4_096)
        }
    }

    @Test func aFailureWithinTheHoldHandsOutNothing() throws {
        struct Failing: Encodable {
            var before: [Int]
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                for number in before { try container.encode(number) }
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "refused"))
            }
        }
        var handedOut = 0
        let small = Failing(before: Array(0..<1_000))
        #expect(throws: EncodingError.self) {
            try SortedJSONEncoder().write(small, holdingUpTo: 1 << 20, chunk: 256) { handedOut += $0.count }
        }
        #expect(handedOut == 0)
        // Past the hold, the part already written is gone: the error says how much.
        do {
            try SortedJSONEncoder().write(small, holdingUpTo: 1_000, chunk: 256) { handedOut += $0.count }
            Issue.record("the failing value was written")
        } catch let error as SortedJSONEncoder.Interrupted {
            #expect(error.bytesHandedOut == handedOut)
            #expect(handedOut >= 1_000)
            #expect(error.underlying is EncodingError)
        }
    }

    @Test func randomChunkAndHoldSizesGiveTheSameBytes() throws {
        let value = report(frames: 300, probe: nil)
        for pretty in [false, true] {
            let reference = try SortedJSONEncoder(pretty: pretty).encodeThroughTree(value, depth: 1)
            #expect(try SortedJSONEncoder(pretty: pretty).encode(value, depth: 1) == reference)
            for (hold, chunk) in [(0, 16), (0, 17), (100, 64), (1 << 30, 16), (5_000, 1 << 16)] {
                var bytes: [UInt8] = []
                try SortedJSONEncoder(pretty: pretty).write(value, depth: 1, holdingUpTo: hold, chunk: chunk) {
                    bytes.append(contentsOf: $0)
                }
                #expect(String(decoding: bytes, as: UTF8.self) == reference, "hold \(hold), chunk \(chunk)")
            }
        }
    }

    /// Strings are scanned for escapes eight bytes at a time: every escaped byte at every offset of long strings,
    /// against Foundation.
    @Test func longStringsEscapeEveryByteAtEveryOffset() throws {
        let specials: [Character] = [
            "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{c}", "\u{0}", "\u{1f}", "\u{7f}", "é", "😀", "/",
        ]
        var strings: [String] = []
        for special in specials {
            for offset in 0..<20 {
                strings.append(
                    String(repeating: "a", count: offset) + String(special) + String(repeating: "b", count: 19)
                )
            }
        }
        strings.append(String(repeating: "x", count: 64))
        strings.append(String(repeating: "\u{1}", count: 17))
        strings.append("")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try SortedJSONEncoder().encode(strings) == String(decoding: try encoder.encode(strings), as: UTF8.self))
    }

    /// Text that needs no escaping is found by whole words (the last overlapping, a short one padded): every length
    /// up to three words, with each escaped byte at each position, against Foundation.
    @Test func shortStringsEscapeEveryByteAtEveryPosition() throws {
        let specials: [Character] = ["\"", "\\", "\n", "\u{0}", "\u{1f}", " ", "\u{7f}", "é"]
        var strings: [String] = []
        for length in 0...24 {
            strings.append(String(repeating: "a", count: length))
            for position in 0..<length {
                for special in specials {
                    var characters = Array(repeating: Character("a"), count: length)
                    characters[position] = special
                    strings.append(String(characters))
                }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try SortedJSONEncoder().encode(strings) == String(decoding: try encoder.encode(strings), as: UTF8.self))
    }

    /// The bytes handed over without a `String` are the document and its suffix, or nil past the limit.
    @Test func encodedBytesAreTheDocumentAndItsSuffix() throws {
        let value = ["alpha": [1, 2, 3], "beta": [4]]
        let whole = try SortedJSONEncoder().encode(value)
        let size = whole.utf8.count
        for limit in [size - 1, size, size + 1, 1 << 20, Int.max] {
            let bytes = try SortedJSONEncoder().withEncoded(value, suffix: "\n", upTo: limit) { $0.map(Array.init) }
            #expect(bytes == (limit >= size ? Array((whole + "\n").utf8) : nil), "limit \(limit)")
        }
        struct Refusing: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "refused"))
            }
        }
        var called = false
        #expect(throws: EncodingError.self) {
            try SortedJSONEncoder().withEncoded(Refusing(), upTo: 100) { _ in called = true }
        }
        #expect(!called)
    }

    @Test func integersAreWrittenAsStringWritesThem() throws {
        let values: [Int64] = [0, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, 1_234_567_890_123]
        #expect(try SortedJSONEncoder().encode(values) == "[" + values.map { String($0) }.joined(separator: ",") + "]")
        let unsigned: [UInt64] = [0, 1, UInt64.max, 10_000_000_000_000_000_000]
        #expect(
            try SortedJSONEncoder().encode(unsigned) == "[" + unsigned.map { String($0) }.joined(separator: ",") + "]"
        )
    }

    /// Containers used in a way JSON cannot write are an error, never wrong output.
    @Test func misusedContainersThrow() throws {
        struct Both: Encodable {
            enum Keys: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(1, forKey: .a)
                var list = encoder.unkeyedContainer()
                try list.encode(2)
            }
        }
        #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode(Both()) }

        final class Stash: @unchecked Sendable {
            var container: KeyedEncodingContainer<Late.Keys>?
        }
        struct Late: Encodable {
            enum Keys: String, CodingKey { case a, b }
            let stash: Stash
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .a)
                stash.container = container
            }
        }
        struct Holder: Encodable {
            var first: Late
            var second: Int
        }
        let stash = Stash()
        #expect(
            try SortedJSONEncoder().encode(Holder(first: Late(stash: stash), second: 2))
                == #"{"first":{"a":1},"second":2}"#
        )
        // The object was written: a member added afterwards cannot be, and says so.
        #expect(throws: EncodingError.self) { try stash.container?.encode(3, forKey: .b) }
    }
}
