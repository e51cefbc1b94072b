import FuzzReplaySupport
import Testing

@testable import APMInspectCore

/// A `JSONDirectEncodable` type may leave some members to their `encode(to:)` (`write(_:encoding:)`): those members
/// must come out as the encoder writes them, and their failures must fail the document as the encoder's do.
@Suite struct JSONObjectWriterFallbackTests {
    /// A Codable member with no writer of its own, whose keys come unsorted.
    private struct Plain: Encodable {
        var zeta = 1
        var alpha = "a\"b"
        var middle: [Double] = [0.5, 1e300, -0.0]
        var nested: [String: Int] = ["b": 2, "a": 1]
    }

    /// A member whose encoding throws after writing part of itself.
    private struct Refusing: Encodable {
        var before: [Int]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for number in before { try container.encode(number) }
            throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "refused"))
        }
    }

    /// A direct value with an encoded member between direct ones, an absent one and an explicit null.
    private struct Mixed: JSONDirectEncodable {
        var first: Int
        var plain: Plain?
        var direct: [Leaf]
        var refusing: Refusing?

        enum CodingKeys: String, CodingKey { case first, plain, direct, refusing, zNull }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(first, forKey: .first)
            try container.encodeIfPresent(plain, forKey: .plain)
            try container.encode(direct, forKey: .direct)
            try container.encodeIfPresent(refusing, forKey: .refusing)
            try container.encodeNil(forKey: .zNull)
        }

        func writeJSONMembers(into object: inout JSONObjectWriter) {
            object.write("direct", direct)
            object.write("first", first)
            object.write("plain", encoding: plain)
            object.write("refusing", encoding: refusing)
            object.writeNull("zNull")
        }
    }

    private struct Leaf: JSONDirectEncodable {
        var name: String
        var inner: Plain
        func writeJSONMembers(into object: inout JSONObjectWriter) {
            object.write("inner", encoding: inner)
            object.write("name", name)
        }
    }

    @Test func encodedMembersAreWrittenAsTheEncoderWritesThem() {
        let leaves = [Leaf(name: "x", inner: Plain()), Leaf(name: "y\n", inner: Plain(zeta: -3, middle: []))]
        for plain in [nil, Plain()] {
            let value = Mixed(first: 7, plain: plain, direct: leaves, refusing: nil)
            #expect(directEncodingMismatches(value) == [])
            let holder = NestedHolder(single: value, list: [value, value], nested: [[value]])
            #expect(directEncodingMismatches(holder) == [])
        }
    }

    @Test func aFailingEncodedMemberFailsTheDocument() throws {
        let value = Mixed(first: 1, plain: Plain(), direct: [], refusing: Refusing(before: [1, 2, 3]))
        #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode(value) }
        let holder = NestedHolder(single: value, list: [], nested: [])
        #expect(throws: EncodingError.self) { try SortedJSONEncoder().encode(holder) }
        #expect(throws: EncodingError.self) { try SortedJSONEncoder(pretty: true).encode(value, upTo: 1 << 20) }
        // Within the hold nothing is handed out; past it, what was handed out is what the error says, and nothing
        // written after the failure follows it.
        var handedOut = 0
        #expect(throws: EncodingError.self) {
            try SortedJSONEncoder().write(value, holdingUpTo: 1 << 20, chunk: 64) { handedOut += $0.count }
        }
        #expect(handedOut == 0)
        let long = Mixed(
            first: 1,
            plain: nil,
            direct: [],
            refusing: Refusing(before: Array(0..<2_000))
        )
        var bytes: [UInt8] = []
        do {
            try SortedJSONEncoder().write(long, holdingUpTo: 100, chunk: 64) { bytes += $0 }
            Issue.record("the failing value was written")
        } catch let error as SortedJSONEncoder.Interrupted {
            #expect(error.bytesHandedOut == bytes.count)
            #expect(bytes.count >= 100)
            #expect(error.underlying is EncodingError)
            // Only the start of the refusing member's array: never the `zNull` member written after it.
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix(#"{"direct":[],"first":1,"refusing":[0,1,2,"#))
            #expect(!text.contains("zNull"))
        }
    }

    @Test func aDirectDocumentPastTheLimitIsNotHeld() throws {
        let leaves = (0..<2_000).map { Leaf(name: "leaf \($0)", inner: Plain()) }
        let value = Mixed(first: 1, plain: nil, direct: leaves, refusing: nil)
        let whole = try SortedJSONEncoder().encode(value)
        #expect(try SortedJSONEncoder().encode(value, upTo: whole.utf8.count) == whole)
        #expect(try SortedJSONEncoder().encode(value, upTo: whole.utf8.count - 1) == nil)
        #expect(try SortedJSONEncoder().encode(value, upTo: 1_000) == nil)
        // A document that passes its limit inside a direct value stops keeping bytes there: the sink's buffer
        // stays near the limit, not the size of the document.
        let sink = JSONByteSink(capacity: 64, limit: 1_000)
        let context = JSONStreamContext(sink: sink, pretty: false)
        JSONObjectWriter.write(value, context: context, depth: 0)
        context.close()
        #expect(sink.failure is JSONStreamContext.TooLarge)
        #expect(sink.count < 4_096)
        #expect(throws: JSONStreamContext.TooLarge.self) { try sink.checkWritten() }
    }
}
