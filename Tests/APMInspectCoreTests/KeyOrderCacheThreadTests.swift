import Dispatch
import Testing

@testable import APMInspectCore

/// Sort orders of key sequences are kept per thread from one document to the next: whatever a thread wrote before,
/// and whatever other threads write at the same time, each object comes out as the tree writer (which sorts every
/// object itself) writes it.
@Suite struct KeyOrderCacheThreadTests {
    /// Kept JSON written by a direct writer, and through `encode(to:)`.
    private struct Holder: JSONDirectEncodable {
        var value: JSONValue
        enum CodingKeys: String, CodingKey { case value }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(value, forKey: .value)
        }
        func writeJSONMembers(into object: inout JSONObjectWriter) { object.write("value", value) }
    }

    /// Codable only: its `[String: JSONValue]` goes through the streaming encoder's member sort.
    private struct Plain: Encodable {
        var members: [String: JSONValue]
    }

    /// Keys drawn from a small set, so that shapes repeat in other orders and with repeated and non-ASCII keys.
    private static let keys = ["b", "a", "zeta", "alpha", "é", "e\u{301}", "A", "aa", "", "Z", "key with space"]

    private static func object(_ state: inout UInt64, depth: Int) -> JSONValue {
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let count = Int(next() % 7)
        var members: [JSONValue.Member] = []
        for _ in 0..<count {
            let key = keys[Int(next() % UInt64(keys.count))]
            let value: JSONValue =
                depth < 2 && next() % 3 == 0 ? object(&state, depth: depth + 1) : .number(String(next() % 100))
            members.append(JSONValue.Member(key: key, value: value))
        }
        return .object(members)
    }

    private static func documents(seed: UInt64, count: Int) -> [JSONValue] {
        var state = seed
        return (0..<count).map { _ in object(&state, depth: 0) }
    }

    private static func expectAsTree(_ values: [JSONValue]) throws {
        let encoder = SortedJSONEncoder()
        for value in values {
            let reference = try encoder.encodeThroughTree(Holder(value: value))
            let direct = try encoder.encode(Holder(value: value))
            #expect(direct == reference, "\(direct) vs \(reference)")
            if case .object(let members) = value {
                var last: [String: JSONValue] = [:]
                for member in members { last[member.key] = member.value }
                let plain = Plain(members: last)
                let streamed = try encoder.encode(plain)
                let tree = try encoder.encodeThroughTree(plain)
                #expect(streamed == tree, "\(streamed) vs \(tree)")
            }
        }
    }

    @Test func documentsOnOneThreadComeOutAsTheTreeWritesThem() throws {
        // Twice over the same documents: the second pass finds every shape in the cache.
        let values = Self.documents(seed: 7, count: 400)
        try Self.expectAsTree(values)
        try Self.expectAsTree(values)
    }

    @Test func threadsWritingAtOnceComeOutAsTheTreeWritesThem() {
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let values = Self.documents(seed: UInt64(thread % 2), count: 300)
            do { try Self.expectAsTree(values) } catch { Issue.record("\(error)") }
        }
    }

    /// Two spellings of one key (`==` in Swift) sort apart by their bytes: one shape must not take the other's order.
    @Test func canonicallyEqualKeysInOtherBytesAreSortedByTheirOwn() throws {
        let composed = JSONValue.object([
            JSONValue.Member(key: "key", value: .number("1")), JSONValue.Member(key: "\u{E9}", value: .number("2")),
        ])
        let decomposed = JSONValue.object([
            JSONValue.Member(key: "key", value: .number("1")), JSONValue.Member(key: "e\u{301}", value: .number("2")),
        ])
        let document = JSONValue.array([composed, decomposed])
        let encoder = SortedJSONEncoder()
        let direct = try encoder.encode(Holder(value: document))
        let tree = try encoder.encodeThroughTree(Holder(value: document))
        #expect(direct == tree, "\(direct) vs \(tree)")
        #expect(try encoder.encode(Holder(value: document)) == #"{"value":[{"key":1,"é":2},{"é":2,"key":1}]}"#)
    }

    @Test func largeKeySequencesAreNotKept() {
        var cache = KeyOrderCache()
        let many = (0...KeyOrderCache.maxKeys).map { "k\(KeyOrderCache.maxKeys - $0)" }
        let order = cache.order(count: many.count) { many[$0] }
        #expect(order?.first == many.count - 1)
        #expect(cache.count == 0)
        let long = [String(repeating: "x", count: KeyOrderCache.maxKeyBytes), "b"]
        #expect(cache.order(count: 2) { long[$0] } == [1, 0])
        #expect(cache.count == 0)
        let small = ["b", "a"]
        #expect(cache.order(count: 2) { small[$0] } == [1, 0])
        #expect(cache.count == 1)
    }
}
