import APMInspectCore
import Testing

@testable import CrashReportParsing

/// Values a field cannot hold are said and kept, never dropped silently; what is kept of the lines and members the
/// readers do not understand is bounded.
@Suite struct UnfitValueTests {
    /// A bug_type 309 report whose `pid` and the first frame's `imageOffset` are `pid` and `offset` as written.
    static func report(pid: String, offset: String = "16", extra: String = "") -> [UInt8] {
        let text = """
            {"bug_type":"309","timestamp":"2023-10-01 12:00:00.00 +0200","name":"Lumen"}
            {
              "procName" : "Lumen",
              "pid" : \(pid),
              "parentPid" : 1,
              "faultingThread" : 0,
              "threads" : [{"id":4001,"triggered":true,"frames":[{"imageOffset":\(offset),"imageIndex":0},{"imageOffset":32,"imageIndex":0}]}],
              "usedImages" : [{"base":4294967296,"size":65536,"name":"Lumen"}]\(extra)
            }
            """
        return Array(text.utf8)
    }

    @Test(arguments: ["1e999", "99999999999999999999", "1.5", "-1e309", "\"812x\""])
    func aPidThatDoesNotFitIsAWarningAndKeptVerbatim(_ pid: String) throws {
        let result = try CrashReportParser().parse(Self.report(pid: pid))
        #expect(result.report.pid == nil)
        #expect(result.report.process == "Lumen")
        #expect(result.report.parentPid == 1)
        let warning = try #require(result.diagnostics.first { $0.location?.keyPath == "pid" })
        #expect(warning.severity == .warning)
        #expect(warning.location?.line == 4)
        let kept = result.report.unknownKeys?["pid"]
        if pid.hasPrefix("\"") {
            #expect(kept == .string("812x"))
        } else {
            #expect(kept == .number(pid))
        }
    }

    @Test func aPidThatFitsGivesNoWarningAndNoUnknownKey() throws {
        let result = try CrashReportParser().parse(Self.report(pid: "-1"))
        #expect(result.report.pid == -1)
        #expect(!result.diagnostics.contains { $0.location?.keyPath != nil })
        #expect(result.report.unknownKeys?["pid"] == nil)
    }

    @Test(arguments: ["-16", "18446744073709551616", "16.5", "1e999"])
    func aNestedUnsignedValueThatDoesNotFitIsKeptUnderItsKeyPath(_ offset: String) throws {
        let result = try CrashReportParser().parse(Self.report(pid: "812", offset: offset))
        #expect(result.report.pid == 812)
        let frames = try #require(result.report.threads.first?.frames)
        #expect(frames.count == 2)
        #expect(frames[0].imageOffset == nil)
        #expect(frames[1].imageOffset == 32)
        let path = "threads[0].frames[0].imageOffset"
        let warning = try #require(result.diagnostics.first { $0.location?.keyPath == path })
        #expect(warning.severity == .warning)
        #expect(result.report.unknownKeys?[path] == .number(offset))
    }

    @Test func unknownMembersStayBesideTheKeptValues() throws {
        let result = try CrashReportParser().parse(
            Self.report(pid: "1e999", extra: #", "futureKey" : {"nested":[1,2]}, "faultingThread2" : -3"#)
        )
        #expect(result.report.unknownKeys?["futureKey"]?["nested"] == .array([.number("1"), .number("2")]))
        #expect(result.report.unknownKeys?["pid"] == .number("1e999"))
    }

    @Test func aNegativeFaultingThreadOrImageBaseIsNotAnIndex() throws {
        let text = String(decoding: Self.report(pid: "812"), as: UTF8.self)
            .replacingOccurrences(of: #""faultingThread" : 0"#, with: #""faultingThread" : -1"#)
            .replacingOccurrences(of: #""base":4294967296"#, with: #""base":-4096"#)
        let result = try CrashReportParser().parse(Array(text.utf8))
        #expect(result.report.unknownKeys?["faultingThread"] == .number("-1"))
        #expect(result.report.unknownKeys?["usedImages[0].base"] == .number("-4096"))
        #expect(result.diagnostics.contains { $0.location?.keyPath == "faultingThread" && $0.severity == .warning })
        #expect(result.diagnostics.contains { $0.location?.keyPath == "usedImages[0].base" })
        // The thread marked triggered is still the crashed one.
        #expect(result.report.crashedThread == 0)
    }

    @Test func manyUnfitValuesAreNamedUpToALimitAndCountedAfter() throws {
        let frames = (0..<500).map { _ in #"{"imageOffset":-1,"imageIndex":0}"# }.joined(separator: ",")
        let text = """
            {"bug_type":"309","name":"Lumen"}
            {"procName":"Lumen","threads":[{"frames":[\(frames)]}],"usedImages":[{"base":4096,"name":"Lumen"}]}
            """
        let result = try CrashReportParser().parse(Array(text.utf8))
        #expect(result.report.threads.first?.frames.count == 500)
        let named = result.diagnostics.filter { $0.location?.keyPath?.hasSuffix(".imageOffset") == true }
        #expect(named.count == CrashJSONFieldIssues.namedIssues)
        // The rest are counted in one more, which has no location.
        let counted = result.diagnostics.filter { $0.code == .crashFieldWrongType && $0.location == nil }
        #expect(counted.count == 1)
        #expect(result.report.unknownKeys?["threads[0].frames[499].imageOffset"] == .number("-1"))
    }

    // MARK: - Unknown entries are capped

    @Test func millionsOfUnparsedTextLinesKeepTheFirstOnesAndCountTheRest() throws {
        let limits = CrashParseLimits()
        let lines = limits.maxUnknownEntries * 3
        var text = "Process:               Lumen [812]\nIdentifier:            com.example.lumen\n"
        text.reserveCapacity(lines * 4 + 200)
        for _ in 0..<lines { text += "?!\n" }
        text += "Exception Type:  EXC_CRASH (SIGABRT)\n"
        let result = try CrashReportParser().parse(Array(text.utf8))
        guard case .object(let members) = result.report.unknownKeys else {
            Issue.record("no unknown keys")
            return
        }
        let unparsed = members.filter { $0.key.hasPrefix("unparsed line ") }
        #expect(unparsed.count == limits.maxUnknownEntries)
        #expect(unparsed.first?.key == "unparsed line 3")
        #expect(unparsed.first?.value == .string("?!"))
        // What follows the dropped lines is still read.
        #expect(result.report.exception?.type == "EXC_CRASH")
        #expect(result.report.isPartial)
        let dropped = lines - limits.maxUnknownEntries
        #expect(dropped > 0)
        #expect(
            result.diagnostics.contains { $0.severity == .warning && $0.code == .crashUnknownKeysTruncated }
        )
    }

    @Test func theByteLimitCutsLongUnparsedLines() throws {
        let limits = CrashParseLimits(maxUnknownBytes: 64 << 10)
        let line = String(repeating: "?", count: 1000)
        var text = "Process:               Lumen [812]\n"
        for _ in 0..<200 { text += line + "\n" }
        let result = try CrashReportParser(limits: limits).parse(Array(text.utf8))
        guard case .object(let members) = result.report.unknownKeys else {
            Issue.record("no unknown keys")
            return
        }
        let keptBytes = members.reduce(0) { total, member in
            guard case .string(let value) = member.value else { return total }
            return total + member.key.utf8.count + value.utf8.count
        }
        #expect(keptBytes <= limits.maxUnknownBytes)
        #expect(keptBytes > limits.maxUnknownBytes - 1100)
        #expect(members.count < 200)
        #expect(result.diagnostics.map(\.code).contains(.crashUnknownKeysTruncated))
    }

    @Test func unparsedLinesInsideABacktraceGiveOneNoteEachOnlyWhileKept() throws {
        let limits = CrashParseLimits(maxUnknownEntries: 10)
        var text = "Process:               Lumen [812]\n\nThread 0 Crashed:\n0   Lumen   0x0000000100004000 main + 8\n"
        for _ in 0..<1000 { text += "?!\n" }
        let result = try CrashReportParser(limits: limits).parse(Array(text.utf8))
        #expect(result.diagnostics.filter { $0.code == .crashBacktraceLineNotFrame }.count == 10)
        // wording: the message counts the lines that were dropped, not kept.
        #expect(result.diagnostics.contains { $0.message.hasPrefix("990 unknown line") })
    }

    @Test func unknownJSONMembersAreCappedToo() throws {
        let limits = CrashParseLimits(maxUnknownEntries: 100)
        let members = (0..<1000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let text = #"{"bug_type":"309","name":"Lumen"}"# + "\n" + #"{"procName":"Lumen",\#(members)}"#
        let result = try CrashReportParser(limits: limits).parse(Array(text.utf8))
        guard case .object(let kept) = result.report.unknownKeys else {
            Issue.record("no unknown keys")
            return
        }
        #expect(kept.count == 100)
        #expect(kept.first?.key == "k0")
        #expect(kept.last?.key == "k99")
        #expect(result.diagnostics.map(\.code).contains(.crashUnknownKeysTruncated))
    }
}
