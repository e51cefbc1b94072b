import APMInspectCore
import Testing

@testable import JetsamParsing

/// Regressions from `apm-inspect fuzz` findings (docs/fuzzing.md), each reduced to the shape that failed.
@Suite struct JetsamFuzzFindingTests {
    private func parse(_ text: String) throws -> JetsamParseResult { try JetsamParser().parse(Array(text.utf8)) }

    /// `ips-json-encode-9407b7df`: `"cpuTime" : -1e309` reads as -infinity, which the model cannot keep as written.
    @Test(arguments: ["-1e309", "1e999", "2E400"])
    func nonFiniteNumbersAreKeptVerbatimWithAWarning(_ number: String) throws {
        let result = try parse(
            #"{"product":"iPhone14,5","processes":[{"pid":7,"rpages":1115,"cpuTime":0.5},"#
                + #"{"pid":2278,"rpages":10,"states":["daemon"],"cpuTime":"# + number + "}]}"
        )
        #expect(result.event.processes.count == 2)
        #expect(result.event.processes.first?.cpuTime == 0.5)
        let process = try #require(result.event.processes.last)
        #expect(process.cpuTime == nil)
        #expect(process.unknownKeys?["cpuTime"] == .number(number))
        let warning = try #require(result.diagnostics.first { $0.location?.keyPath == "processes[1].cpuTime" })
        #expect(warning.severity == .warning)
        #expect(warning.message.contains("finite"))
    }

    @Test func finiteNumbersGiveNoWarning() throws {
        let result = try parse(
            #"{"product":"iPhone14,5","processes":[{"pid":7,"rpages":1115,"states":["daemon"],"cpuTime":1.7976931348623157e308}]}"#
        )
        #expect(result.event.processes.first?.cpuTime == 1.7976931348623157e308)
        #expect(!result.diagnostics.contains { $0.location?.keyPath?.hasSuffix("cpuTime") == true })
    }

    /// h10 `ips-dropped-unknown-key-f54476f4`: a header vouches for a body that has none of a body's keys.
    @Test func aBodyWithOnlyUnknownKeysKeepsThem() throws {
        let result = try parse(#"p":"","bug_type":"298","":")"}"# + "\n" + #"{"futureKey":1,"#)
        #expect(result.event.unknownKeys?["futureKey"] == .number("1"))
        #expect(result.event.isPartial)
    }
}
