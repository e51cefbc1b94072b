import APMInspectCore
import Testing

@testable import JetsamParsing

/// Issue 20: JetsamEvent excerpts from posts and forums, read for the one fact they are quoted for.
@Suite struct ExcerptFidelityTests {
    private static let header =
        #"{"bug_type":"298","timestamp":"2023-02-08 11:14:52.00 +0000","os_version":"iPhone OS 16.3 (20D47)","incident_id":"A0F3C9D1-5E27-4B86-9C4A-7D12E8B3F650"}"#

    private static let killedApp = """
          {
            "uuid" : "9c788e00-51fd-496d-a3a4-cd11d8046b21",
            "states" : ["frontmost"],
            "rpages" : 184320,
            "priority" : 100,
            "reason" : "per-process-limit",
            "pid" : 3127,
            "name" : "Driftwood"
          },
        """

    private func both(_ text: String) throws -> (JetsamParseResult, MemoryLimitEvidence) {
        let bytes = Array(text.utf8)
        let full = try JetsamParser().parse(bytes)
        let fast = try JetsamParser().memoryLimitEvidence(IPSContainer(bytes: bytes)) { 1 }
        return (full, fast.evidence)
    }

    @Test func processObjectsAfterAnElidedProcessesLineAreProcesses() throws {
        let text =
            Self.header + "\n{\n  \"product\" : \"iPhone14,5\",\n  \"pageSize\" : 16384,\n"
            + "  \"build\" : \"iPhone OS 16.3 (20D47)\",\n  \"largestProcess\" : \"Driftwood\",\n  ...\n"
            + Self.killedApp + "\n  ...\n}\n"
        let (result, evidence) = try both(text)
        let app = try #require(result.event.processes.first { $0.name == "Driftwood" })
        #expect(app.pid == 3127)
        #expect(app.reason == "per-process-limit")
        #expect(app.limitMB == 2880)
        #expect(result.event.unknownKeys?["pid"] == nil)
        #expect(result.diagnostics.contains { $0.code == .jetsamFlattenedProcess })
        #expect(evidence.kills.map(\.limitMB) == [2880])
        #expect(evidence.kills.first?.role == .foregroundApp)
    }

    @Test func anUnbalancedBraceKeepsWhatCameBefore() throws {
        let text =
            Self.header + "\n{\n  \"product\" : \"iPhone14,5\",\n  \"pageSize\" : 16384,\n  ...\n"
            + "    \"compressorSize\" : 52114\n  },\n  \"largestProcess\" : \"Driftwood\",\n"
            + "  \"processes\" : [\n" + Self.killedApp + "\n  ]\n}\n"
        let (result, evidence) = try both(text)
        #expect(result.event.product == "iPhone14,5")
        #expect(result.event.pageSize == 16384)
        #expect(result.event.pageSizeSource == "pageSize")
        #expect(evidence.product == "iPhone14,5")
        #expect(evidence.hasPageSize)
        #expect(evidence.kills.map(\.limitMB) == [2880])
    }

    @Test func aStringWrappedOverTwoLinesIsJoined() throws {
        let text =
            Self.header + "\n{\n  \"kernel\" : \"Darwin Kernel Version 22.3.0: Wed Jan  4 21:25:19 PST 2023;\n"
            + "root:xnu-8792.82.2~1\\/RELEASE_ARM64_T8110\",\n  \"product\" : \"iPhone14,5\",\n"
            + "  \"memoryStatus\" : {\"pageSize\" : 16384},\n  \"largestProcess\" : \"Driftwood\",\n"
            + "  \"processes\" : [\n" + Self.killedApp + "\n  ]\n}\n"
        let (result, _) = try both(text)
        #expect(
            result.event.kernel
                == "Darwin Kernel Version 22.3.0: Wed Jan  4 21:25:19 PST 2023; root:xnu-8792.82.2~1/RELEASE_ARM64_T8110"
        )
        let joined = try #require(result.diagnostics.first { $0.code == .jetsamWrappedStringJoined })
        #expect(joined.location?.line == 3)
        #expect(result.event.isPartial)
    }

    @Test func joiningKeepsOffsetsAndLines() throws {
        // Indented continuation: the spare indentation carries the line break, so every later line keeps its number.
        let body = Array("{\n  \"k\" : \"first half\n    second half\",\n  \"n\" : 1\n}\n".utf8)
        let (joined, offsets) = try #require(WrappedStringJoiner.join(body))
        #expect(joined.count == body.count)
        #expect(joined.filter { $0 == 0x0A }.count == body.filter { $0 == 0x0A }.count)
        #expect(offsets == [10])
        let document = try JSONDocument(text: String(decoding: joined, as: UTF8.self))
        #expect(document.root["k"]?.string == "first half second half")
        #expect(document.root["n"]?.int64 == 1)
        // Strict JSON is never touched.
        #expect(WrappedStringJoiner.join(Array("{\"a\" : \"b\",\n\"c\" : \"d\"}\n".utf8)) == nil)
        // A quote inside a comment does not open a string.
        #expect(WrappedStringJoiner.join(Array("{ // say \"hi\n\"a\" : 1 }\n".utf8)) == nil)
    }

    @Test func aLoneProcessEntryMakesNoDeviceRow() throws {
        let bytes = Array(Self.killedApp.utf8)
        let container = IPSContainer(bytes: bytes)
        #expect(JetsamParser.isJetsamEvent(container))
        let evidence = try JetsamParser().memoryLimitEvidence(container) { 7 }.evidence
        #expect(evidence.product == nil)
        var table = MemoryLimitTable(options: .init(includeBeta: true, includeModifiedKernels: true))
        let added = table.add(evidence)
        #expect(!added)
        #expect(table.excluded == [MemoryLimitTable.noDevice: 1])
        #expect(table.rows.isEmpty)
    }
}
