import APMInspectCore
import Testing

@testable import JetsamParsing

/// A value its field cannot hold is a warning at its key path and is kept verbatim, never dropped in silence.
@Suite struct JetsamUnfitValueTests {
    private func parse(_ text: String) throws -> JetsamParseResult { try JetsamParser().parse(Array(text.utf8)) }

    @Test(arguments: [
        ("pid", "99999999999999999999"), ("pid", "1e999"), ("pid", "1.5"), ("rpages", "-1"), ("rpages", "1.5"),
        ("rpages", "18446744073709551616"), ("fds", "\"many\""),
    ])
    func aNumberThatDoesNotFitIsKeptInTheProcess(_ key: String, _ value: String) throws {
        let result = try parse(
            #"{"product":"iPhone14,5","processes":[{"name":"a","rpages":10,"states":["daemon"],"#
                + "\"\(key)\":\(value)}]}"
        )
        let process = try #require(result.event.processes.first)
        #expect(process.name == "a")
        let kept = process.unknownKeys?[key]
        #expect(kept == (value.hasPrefix("\"") ? .string("many") : .number(value)))
        let warning = try #require(result.diagnostics.first { $0.location?.keyPath == "processes[0].\(key)" })
        #expect(warning.severity == .warning)
    }

    @Test func aMemoryStatusThatIsNotAnObjectIsKeptInTheBody() throws {
        let result = try parse(#"{"product":"iPhone14,5","memoryStatus":16384,"processes":[]}"#)
        #expect(result.event.memoryStatus == nil)
        #expect(result.event.unknownKeys?["memoryStatus"] == .number("16384"))
        #expect(result.diagnostics.contains { $0.location?.keyPath == "memoryStatus" && $0.severity == .warning })
    }

    @Test func memoryPagesThatAreNotAnObjectAreKeptInTheStatus() throws {
        let result = try parse(#"{"product":"iPhone14,5","memoryStatus":{"pageSize":16384,"memoryPages":[1,2]}}"#)
        #expect(result.event.memoryStatus?.pageSize == 16384)
        #expect(result.event.memoryStatus?.memoryPages == nil)
        #expect(result.event.memoryStatus?.unknownKeys?["memoryPages"] == .array([.number("1"), .number("2")]))
        #expect(result.diagnostics.contains { $0.location?.keyPath == "memoryStatus.memoryPages" })
    }

    @Test func physicalPagesThatAreNotAnObjectAreKeptInTheProcess() throws {
        let result = try parse(
            #"{"product":"iPhone14,5","processes":[{"name":"a","rpages":10,"physicalPages":"none"}]}"#
        )
        let process = try #require(result.event.processes.first)
        #expect(process.physicalPages == nil)
        #expect(process.unknownKeys?["physicalPages"] == .string("none"))
        #expect(result.diagnostics.contains { $0.location?.keyPath == "processes[0].physicalPages" })
    }

    @Test func processesThatAreNotAListAreKeptInTheBody() throws {
        let result = try parse(#"{"product":"iPhone14,5","memoryStatus":{"pageSize":16384},"processes":{"a":1}}"#)
        #expect(result.event.processes.isEmpty)
        #expect(result.event.unknownKeys?["processes"] == .object([.init(key: "a", value: .number("1"))]))
        #expect(result.diagnostics.contains { $0.location?.keyPath == "processes" && $0.severity == .warning })
    }
}
