import APMInspectCore
import FuzzProperties
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
        #expect(warning.code == .jetsamMistypedValue)
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

    /// The shape of `ips-dropped-unknown-key-f54476f4` (seed 1 over the symbolication fixtures, in a crash report).
    ///
    /// A stray `}` after the key added at the top of the body closes the body, and the members after it are an
    /// object without braces. The piece before the brace, with none of a body's keys, was dropped without a word.
    @Test func aPieceCutOffByAStrayBraceKeepsItsUnknownKeys() throws {
        let header = #"{"bug_type":"298","os_version":"iPhone OS 16.3 (20D47)","incident_id":"A0F3"}"#
        let body =
            "{\"futureKey\":1,\n  },\n"
            + #""product":"iPhone14,5","pageSize":16384,"processes":[{"pid":7,"name":"Quill","rpages":1115,"#
            + #""states":["frontmost"],"reason":"per-process-limit"}]}"#
        let text = header + "\n" + body
        let result = try parse(text)
        #expect(result.event.unknownKeys?["futureKey"] == .number("1"))
        #expect(result.event.product == "iPhone14,5")
        #expect(result.event.processes.count == 1)
        let warning = try #require(result.diagnostics.first { $0.code == .jsonBodyInPieces })
        #expect(warning.severity == .warning)
        #expect(warning.location?.line == 2)
        #expect(warning.location?.byteOffset == header.utf8.count + 1)
        // The memory-limit fast path reads the same pieces.
        #expect(FuzzChecks.jetsamLimits(Array(text.utf8)).violations.isEmpty)
    }

    @Test func aPieceAfterTheBraceKeepsItsUnknownKeys() throws {
        let body =
            #"{"product":"iPhone14,5","processes":[{"pid":7,"rpages":1115,"states":["daemon"]}]"#
            + "\n},\n" + #""futureKey":"after","eventReason":"memory"}"#
        let result = try parse(#"{"bug_type":"298","os_version":"iPhone OS 16.3 (20D47)"}"# + "\n" + body)
        #expect(result.event.unknownKeys?["futureKey"] == .string("after"))
        #expect(result.event.eventReason == "memory")
    }

    /// Without a body to join, such an object's members are the report's unknown keys; still an excerpt, located.
    @Test func anObjectBesideLooseProcessesKeepsItsKeys() throws {
        let text = #"[{"pid":7,"rpages":1115,"states":["daemon"]},"# + "\n" + #"{"futureKey":1}]"#
        let result = try parse(text)
        #expect(result.event.processes.count == 1)
        #expect(result.event.unknownKeys?["futureKey"] == .number("1"))
        #expect(result.event.isPartial)
        let warning = try #require(result.diagnostics.first { $0.code == .jetsamLooseObject })
        #expect(warning.location?.line == 2)
        #expect(
            result.diagnostics.contains { $0.code == .jetsamExcerpt }
        )
        #expect(FuzzChecks.jetsamLimits(Array(text.utf8)).violations.isEmpty)
    }

    /// An `.ips` header among the body's fragments (no header line recognised, or a second report's): its members
    /// are kept with the body's, and the diagnostic says where it is.
    @Test func aHeaderObjectInTheBodyIsKeptAndLocated() throws {
        let text =
            #"{"product":"iPhone14,5","processes":[{"pid":7,"rpages":1115,"states":["daemon"]}]}"# + "\n"
            + #"{"bug_type":"298","timestamp":"2023-02-08 11:14:52.00 +0000"}"#
        let result = try parse(text)
        #expect(result.event.bugType == "298")
        #expect(result.event.unknownKeys?["timestamp"] == .string("2023-02-08 11:14:52.00 +0000"))
        let warning = try #require(result.diagnostics.first { $0.code == .jsonHeaderObjectInBody })
        #expect(warning.severity == .warning)
        #expect(warning.location?.line == 2)
    }

    /// The same finding from seed 7: the body a header vouches for has a `timestamp` (a header's key).
    @Test func aVouchedBodyWithAHeaderKeyKeepsItsKeys() throws {
        let text =
            #"{"bug_type":"298","ti":"202347)","i_id":"A50"}"# + "\n"
            + "{\"futureKey\":1,\n    \"timestamp\" : \"20\n    },"
        let result = try parse(text)
        #expect(result.event.unknownKeys?["futureKey"] == .number("1"))
        #expect(FuzzChecks.jetsamLimits(Array(text.utf8)).violations.isEmpty)
    }

    /// `ips-dropped-unknown-key-f54476f4` again (seeds 2 and 3 over Corpus/crash, jetsam and watchdog, 3000 inputs):
    /// the body with only unknown keys that a header vouches for, followed by a `,` or text, is a list of fragments;
    /// only a root object was kept as the body.
    @Test(arguments: [
        #"{"bug_type":"298","ti":"","id":""}"# + "\n" + #"{"futureKey":1, },"# + "\n",
        #"{"bug_type":"298","ti":"47)","i_id":"A50"}"# + "\n{\"futureKey\":1,\n \n  \"paixelia\"},\n    ",
    ])
    func aVouchedBodyFollowedByAFragmentKeepsItsKeys(_ text: String) throws {
        let result = try parse(text)
        #expect(result.event.unknownKeys?["futureKey"] == .number("1"))
        #expect(!result.diagnostics.contains { $0.code == .jetsamNoContent })
        #expect(FuzzChecks.jetsamLimits(Array(text.utf8)).violations.isEmpty)
    }

    @Test func vouchedPiecesAreLocated() throws {
        let text =
            #"{"bug_type":"298","os_version":"iPhone OS 16.3 (20D47)"}"# + "\n"
            + #"{"futureKey":1},"# + "\n" + #"{"laterKey":2}"#
        let result = try parse(text)
        #expect(result.event.unknownKeys?["futureKey"] == .number("1"))
        #expect(result.event.unknownKeys?["laterKey"] == .number("2"))
        let warning = try #require(result.diagnostics.first { $0.code == .jsonBodyInPieces })
        #expect(warning.location?.line == 3)
    }
}
