import APMInspectCore
import PropertyBased
import Testing

@testable import JetsamParsing

@Suite struct JetsamInlineTests {
    private func parse(_ text: String) throws -> JetsamParseResult { try JetsamParser().parse(Array(text.utf8)) }

    @Test func noPageSizeMeansNoByteFigures() throws {
        let result = try parse(
            #"{"bug_type":"298","os_version":"iPhone OS 12.0 (16A366)"}"# + "\n"
                + #"{"product":"iPhone10,1","processes":[{"pid":1,"name":"App","states":["frontmost"],"rpages":89600,"reason":"per-process-limit"}]}"#
        )
        let app = try #require(result.event.processes.first)
        #expect(result.event.pageSize == nil)
        #expect(app.footprintBytes == nil)
        #expect(app.limitMB == nil)
        #expect(result.diagnostics.contains { $0.code == .jetsamNoPageSize })
    }

    @Test func topLevelPageSizeIsAFallback() throws {
        let result = try parse(
            #"{"product":"iPhone10,1","pageSize":16384,"processes":[{"pid":1,"name":"MemoryTest","states":["frontmost","resume"],"rpages":89600,"reason":"per-process-limit"}]}"#
        )
        #expect(result.event.pageSizeSource == "pageSize")
        #expect(result.event.processes.first?.limitMB == 1400)
    }

    @Test func unknownKeysAreKeptVerbatim() throws {
        let result = try parse(
            #"{"product":"iPhone16,2","memoryStatus":{"pageSize":16384,"futureField":[1,2]},"zones":{"a":1},"processes":[{"pid":2,"name":"x","states":[],"rpages":1,"brandNew":"v","physicalPages":{"internal":[1,2],"iokit":9}}]}"#
        )
        #expect(
            result.event.unknownKeys
                == .object([.init(key: "zones", value: .object([.init(key: "a", value: .number("1"))]))])
        )
        #expect(result.event.memoryStatus?.unknownKeys?["futureField"] == .array([.number("1"), .number("2")]))
        let process = try #require(result.event.processes.first)
        #expect(process.unknownKeys?["brandNew"] == .string("v"))
        #expect(process.physicalPages?.unknownKeys?["iokit"] == .number("9"))
    }

    @Test func wrongTypesAreReportedAndKept() throws {
        let result = try parse(#"{"product":"iPhone8,2","processes":[{"pid":"12","rpages":-5,"states":["daemon"]}]}"#)
        let process = try #require(result.event.processes.first)
        #expect(process.pid == nil)
        #expect(process.rpages == nil)
        #expect(process.unknownKeys?["rpages"] == .number("-5"))
        #expect(result.diagnostics.contains { $0.location?.keyPath == "processes[0].rpages" })
    }

    @Test func renamedAndUnknownReasons() {
        #expect(KillReason("vm-thrashing").code == 5)
        #expect(KillReason("proc-thrashing").code == 5)
        #expect(KillReason("diagnostic").code == 8)
        #expect(KillReason("disk-space-shortage").code == 8)
        #expect(KillReason("per-process-limit").revealsLimit)
        #expect(KillReason("something-new").isUnknown)
        #expect(KillReason("something-new").name == "something-new")
    }

    @Test(arguments: [
        ("kernel_task", [String](), Int64?.none, ProcessRole.daemon),
        ("SpringBoard", [], 160, .daemon),
        ("MyApp", ["frontmost"], 100, .foregroundApp),
        ("MyApp", ["suspended"], 20, .backgroundApp),
        ("RebornTunnel", ["frontmost"], nil, .extension),
        ("com.apple.WebKit.WebContent", ["suspended"], nil, .extension),
        ("passd", ["daemon", "idle"], 0, .daemon),
    ])
    func roles(name: String, states: [String], priority: Int64?, expected: ProcessRole) {
        #expect(ProcessRole.classify(name: name, states: states, normalizedPriority: priority) == expected)
    }

    @Test func bandNames() {
        #expect(PriorityScale.legacy.normalize(10) == 100)
        #expect(PriorityScale.legacy.normalize(999) == 999)
        #expect(PriorityScale.bandName(forNormalized: 100) == "FOREGROUND")
        #expect(PriorityScale.bandName(forNormalized: 140) == "CONDUCTOR")
        #expect(PriorityScale.bandName(forNormalized: 0) == "IDLE")
    }

    /// Cutting or corrupting a real report anywhere never traps the parser.
    @Test func mutatedReportsNeverTrap() async throws {
        let original = try CorpusSupport.bytes(
            "ios14.4_iPhone12-1_priority_physicalPages_background-and-widget-per-process-limit.ips"
        )
        await propertyCheck(
            count: 200,
            input: Gen.int(in: 0...original.count),
            Gen.int(in: 0...original.count),
            Gen.uint8()
        ) { cut, flip, byte in
            var bytes = Array(original.prefix(cut))
            if flip < bytes.count { bytes[flip] = byte }
            let container = IPSContainer(bytes: bytes)
            _ = try? JetsamParser().parse(container)
            _ = try? JetsamParser().memoryLimitEvidence(container) { 0 }
        }
    }
}
