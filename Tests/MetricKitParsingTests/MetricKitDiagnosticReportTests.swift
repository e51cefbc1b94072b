import APMInspectCore
import Foundation
import MetricKitParsing
import Testing

/// The iOS/macOS 27 `DiagnosticReport` shape, on the crafted samples of Corpus/metrickit (no public sample exists)
/// and on small hostile variants.
@Suite struct MetricKitDiagnosticReportTests {
    static let memory = "ios27.0_diagnostic_report_memory_exception.json"
    static let crash = "ios27.0_diagnostic_report_crash_bad_access.json"
    static let variants = "ios27.0_diagnostic_reports_array_hang_and_variants.json"

    static func bytes(_ name: String) throws -> [UInt8] {
        try FileReading.contents(
            atPath: MetricKitCorpusTests.root.appendingPathComponent("Corpus/metrickit/\(name)").path
        )
    }

    static func read(_ name: String) throws -> MetricKitReadResult {
        try MetricKitDiagnosticReportReader().read(try bytes(name))
    }

    static func read(json: String) throws -> MetricKitReadResult {
        try MetricKitDiagnosticReportReader().read(Array(json.utf8))
    }

    static func recognised(_ bytes: [UInt8]) -> Bool {
        MetricKitDiagnosticReportReader.recognise(bytes, format: ContentSniffer.format(of: bytes))
    }

    @Test func recognisesTheCodableShapeAndNotThePayloads() throws {
        for name in [Self.memory, Self.crash, Self.variants] {
            #expect(Self.recognised(try Self.bytes(name)), "\(name)")
        }
        // Every `jsonRepresentation()` file stays with the payload reader.
        let legacy = MetricKitCorpusTests.files.filter { !$0.hasPrefix("ios27") }
        #expect(legacy.count >= 7)
        for name in legacy {
            #expect(!Self.recognised(try Self.bytes(name)), "\(name)")
        }
        // A report about such a file names the keys as values, not keys.
        #expect(!Self.recognised(Array(#"{"keys": ["result", "environment", "crash", "callStackThreads"]}"#.utf8)))
        #expect(!Self.recognised(Array(#"{"result": {"ok": true}, "environment": "prod"}"#.utf8)))
    }

    @Test func memoryExceptionKeepsItsTreeAndFrames() throws {
        let result = try Self.read(Self.memory)
        #expect(result.diagnostics.isEmpty)
        #expect(result.report.diagnosticCounts == ["memoryException": 1])
        let diagnostic = try #require(result.report.diagnostics.first)
        #expect(diagnostic.kind == .memoryException)
        #expect(diagnostic.keyPath == "result.memoryException._0")
        #expect(diagnostic.metadata.appVersion == "4.0.0" && diagnostic.metadata.appBuildVersion == "412")
        #expect(diagnostic.metadata.osVersion == "iPhone OS 27.0 (24A5260a)")
        #expect(diagnostic.metadata.osBuild == "24A5260a" && diagnostic.metadata.deviceType == "iPhone17,1")
        #expect(diagnostic.metadata.pid == 2817)
        let tree = try #require(diagnostic.callTree)
        #expect(tree.perThread == true)
        #expect(tree.stacks.map(\.threadAttributed) == [true, false])
        #expect(tree.frames.count == 17)
        // Names come from binaryInfo, which names each binary once.
        #expect(tree.frames.allSatisfy { $0.binaryName != nil })
        #expect(tree.label(of: tree.heaviestPath[0]) == "libsystem_malloc.dylib+0x1c40")
        #expect(tree.frames[tree.heaviestPath[3]].binaryName == "FernwayKit")
        #expect(tree.frames[0].loadAddress == HexValue(0x1_9A2B_0000))
        let payload = try #require(result.report.payloads.first)
        #expect(payload.timeStampBegin == "2026-09-21T07:42:10+00:00")
        #expect(payload.begin == payload.end)
    }

    @Test func crashKeepsItsTerminationCategory() throws {
        let result = try Self.read(Self.crash)
        #expect(result.diagnostics.isEmpty)
        let diagnostic = try #require(result.report.diagnostics.first)
        #expect(diagnostic.kind == .crash)
        #expect(diagnostic.terminationCategory == "badAccess")
        #expect(diagnostic.terminationReason == "Namespace SIGNAL, Code 11 Segmentation fault: 11")
        #expect(diagnostic.exceptionType == 1 && diagnostic.signal == 11 && diagnostic.exceptionCode == 1)
        let report = try #require(diagnostic.crashReport)
        #expect(report.exception?.type == "EXC_BAD_ACCESS" && report.exception?.signal == "SIGSEGV")
        #expect(report.process == "Fernway")
        #expect(report.crashedThread == 0 && report.threads.count == 2)
        #expect(report.threads[0].frames.count == 12)
        #expect(report.binaryImages.count == 10)
        #expect(report.blocks.first?.lines.last?.hasSuffix("/Fernway.app/Fernway") == true)
        let encoded = try SortedJSONEncoder().encode(result.report)
        #expect(encoded.contains(#""terminationCategory":"badAccess""#))
    }

    @Test func variantsAreReadWithANoteAndUnknownCasesKept() throws {
        let result = try Self.read(Self.variants)
        #expect(result.report.isArray)
        #expect(result.report.payloads.count == 3)
        #expect(result.report.diagnosticCounts == ["hang": 1, "cpuException": 1])
        let codes = result.diagnostics.map(\.code)
        #expect(codes.filter { $0 == .metricKitCodableVariant }.count == 7)
        #expect(codes.filter { $0 == .metricKitUnknownResult }.count == 1)
        #expect(result.diagnostics.allSatisfy { $0.severity != .error })
        let hang = result.report.diagnostics[0]
        #expect(hang.hangDuration?.raw == "2150 ms" && hang.hangDuration?.normalized == 2.15)
        let cpu = result.report.diagnostics[1]
        #expect(cpu.keyPath == "[1].result.cpuException")
        #expect(cpu.totalCPUTime?.normalized == 61 && cpu.totalSampledTime?.normalized == 180)
        #expect(cpu.metadata.osName == "iPadOS" && cpu.metadata.osBuild == "24A5260a")
        #expect(cpu.callTree?.frames.count == 5 && cpu.callTree?.totalSamples == 60)
        #expect(cpu.callTree?.frames.first?.binaryName == "SQLite")
        #expect(result.report.payloads[1].timeStampEnd == "2026-09-24T00:00:00+00:00")
        let unknown = try #require(result.report.payloads[2].unknownKeys?["result"])
        #expect(unknown["thermalException"] != nil)
    }

    @Test func malformedValuesAreFindingsWithTheirCodes() throws {
        let json = #"""
            [{"environment": {"osVersion": 27, "pid": "12"}, "timeRange": {"start": "yesterday", "duration": -1},
              "result": {"crash": {"_0": {"exceptionType": "many", "exceptionCode": 18446744073709551615,
                "terminationCategory": {"rawValue": "watchdog"}, "hangDuration": [1],
                "callStackTree": {"callStackThreads": [{"rootFrames": [{"binaryUUID": "AB", "address": -5,
                  "subFrames": []}]}], "binaryInfo": ["AB", 7]}}}}},
             {"environment": {}, "timeRange": {"start": 0, "duration": 60}},
             {"result": "crash", "environment": {}},
             {"result": {"hang": 3}, "timeRange": {}}]
            """#
        let result = try Self.read(json: json)
        let codes = Set(result.diagnostics.map(\.code.rawValue))
        #expect(codes.isSuperset(of: ["metrickit.wrong-type", "metrickit.no-result", "metrickit.codable-variant"]))
        #expect(result.diagnostics.allSatisfy { $0.location?.keyPath != nil })
        let crash = try #require(result.report.diagnostics.first)
        #expect(crash.exceptionType == nil)
        #expect(crash.exceptionCode.map { UInt64(bitPattern: $0) } == UInt64.max)
        #expect(crash.terminationCategory == "watchdog")
        #expect(crash.hangDuration == nil)
        #expect(crash.unknownKeys?["exceptionType"] == .string("many"))
        #expect(crash.callTree?.frames.count == 1 && crash.callTree?.frames.first?.address == nil)
        #expect(crash.metadata.pid == 12 && crash.metadata.osVersion == nil)
        #expect(result.report.payloads.count == 4)
        #expect(result.report.payloads[1].timeStampBegin == "2001-01-01T00:00:00+00:00")
        #expect(result.report.payloads[1].timeStampEnd == "2001-01-01T00:01:00+00:00")
        #expect(result.report.payloads[2].unknownKeys?["result"] == .string("crash"))
        #expect(result.report.diagnosticCounts == ["crash": 1])
    }

    @Test func aFileCutShortIsReadToTheCut() throws {
        let whole = try Self.bytes(Self.memory)
        let result = try MetricKitDiagnosticReportReader().read(Array(whole.prefix(whole.count / 2)))
        #expect(result.diagnostics.contains { $0.code == .metricKitTruncatedJSON })
        #expect(result.report.diagnostics.first?.kind == .memoryException)
        #expect((result.report.diagnostics.first?.callTree?.frames.count ?? 0) > 0)
    }

    @Test func framesStopAtTheLimit() throws {
        let reader = MetricKitDiagnosticReportReader(reader: MetricKitReader(maxFrames: 5))
        let result = try reader.read(try Self.bytes(Self.memory))
        #expect(result.diagnostics.contains { $0.code == .metricKitFramesTruncated })
        #expect(result.report.diagnostics.first?.callTree?.frames.count == 5)
    }

    @Test func aDocumentOfAnotherShapeIsAnError() {
        #expect(throws: InputError.self) { try Self.read(json: "42") }
    }
}
