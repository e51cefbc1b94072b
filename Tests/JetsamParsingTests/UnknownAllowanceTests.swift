import APMInspectCore
import Testing

@testable import JetsamParsing

/// A body made of a huge number of unknown or mistyped values is read in time proportional to its size, keeps
/// the first values verbatim up to the allowance, and says once how many it left out (the audit's 4 MB report of
/// mistyped `states` took hours: each warning found its line by scanning from the start).
@Suite struct JetsamUnknownAllowanceTests {
    private static func body(process members: String) -> [UInt8] {
        Array(
            (#"{"product":"iPhone14,5","memoryStatus":{"pageSize":16384},"processes":[{"name":"App","pid":1,"#
                + #""rpages":100,"reason":"per-process-limit","# + members + "}]}").utf8
        )
    }

    @Test func mistypedValuesAreCappedAndCounted() throws {
        let count = 200_000
        let bytes = Self.body(
            process: #""states":["# + Array(repeating: "1", count: count).joined(separator: ",") + "]"
        )
        let result = try JetsamParser().parse(bytes)
        let process = try #require(result.event.processes.first)
        #expect(process.name == "App")
        #expect(process.limitMB != nil)
        guard case .object(let kept)? = process.unknownKeys else {
            Issue.record("no unknownKeys")
            return
        }
        #expect(kept.count == JetsamParseOptions().maxUnknownEntries)
        let listed = result.diagnostics.filter { $0.code == .jetsamMistypedValue }
        #expect(listed.count == 20)
        #expect(listed.allSatisfy { $0.location?.keyPath == "processes[0].states" && $0.location?.line == 1 })
        #expect(result.diagnostics.filter { $0.code == .moreNotListed }.count == 1)
        #expect(result.diagnostics.map(\.code).contains(.jetsamUnknownValuesLimit))
    }

    @Test func unknownMembersAreCappedByBytes() throws {
        let options = JetsamParseOptions(maxUnknownEntries: 1_000_000, maxUnknownBytes: 4_096)
        let members = (0..<2_000).map { #""k\#($0)":"\#(String(repeating: "x", count: 20))""# }.joined(separator: ",")
        let result = try JetsamParser(options: options).parse(Self.body(process: members))
        guard case .object(let kept)? = try #require(result.event.processes.first).unknownKeys else {
            Issue.record("no unknownKeys")
            return
        }
        // Each member is its key's bytes plus the value's 22: the allowance holds the first ones, in order.
        let bytes = kept.reduce(0) { $0 + $1.key.utf8.count + 22 }
        #expect(bytes <= 4_096 && bytes > 4_096 - 30)
        #expect(kept.first?.key == "k0")
        #expect(kept.map(\.key) == (0..<kept.count).map { "k\($0)" })
        #expect(result.diagnostics.map(\.code).contains(.jetsamUnknownValuesLimit))
    }

    @Test func aFewUnknownKeysAreAllKeptWithoutAWarning() throws {
        let result = try JetsamParser().parse(Self.body(process: #""newField":7,"another":{"a":[1,2]}"#))
        let kept = try #require(result.event.processes.first?.unknownKeys)
        #expect(kept["newField"] == .number("7"))
        #expect(kept["another"] == .object([JSONValue.Member(key: "a", value: .array([.number("1"), .number("2")]))]))
        #expect(!result.diagnostics.contains { $0.code == .jetsamUnknownValuesLimit || $0.code == .moreNotListed })
    }
}
