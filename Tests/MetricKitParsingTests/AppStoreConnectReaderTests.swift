import APMInspectCore
import Foundation
import MetricKitParsing
import Testing

/// App Store Connect API diagnostics responses, on the crafted samples of Corpus/appstoreconnect (written from the
/// documented shapes) and on hostile variants.
@Suite struct AppStoreConnectReaderTests {
    static let diskWrites = "asc_v1_signature_logs_disk_writes.json"
    static let hang = "asc_v1_signature_logs_hang_per_thread.json"
    static let signatures = "asc_v1_build_diagnostic_signatures.json"

    static func bytes(_ name: String) throws -> [UInt8] {
        try FileReading.contents(
            atPath: MetricKitCorpusTests.root.appendingPathComponent("Corpus/appstoreconnect/\(name)").path
        )
    }

    static func read(_ bytes: [UInt8], reader: AppStoreConnectReader = AppStoreConnectReader()) throws
        -> AppStoreConnectReadResult
    {
        try reader.read(bytes)
    }

    static func read(json: String) throws -> AppStoreConnectReadResult {
        try AppStoreConnectReader().read(Array(json.utf8))
    }

    static func codes(_ result: AppStoreConnectReadResult) -> Set<String> {
        Set(result.diagnostics.map(\.code.rawValue))
    }

    @Test func diskWriteLogsKeepMetadataInsightsAndSymbolicatedFrames() throws {
        let result = try Self.read(try Self.bytes(Self.diskWrites))
        let report = result.report
        #expect(result.diagnostics.isEmpty)
        #expect(report.response == .diagnosticLogs)
        #expect(report.version == "1.0")
        #expect(report.kindCounts == ["diskWriteException": 2])
        let product = try #require(report.products.first)
        #expect(product.signatureId?.hasPrefix("7d41c0a9") == true)
        #expect(product.insights.first?.category == "SQLiteSpill")
        #expect(product.insights.first?.url?.hasSuffix("#Use-Appropriate-Indices") == true)
        let log = try #require(product.logs.first)
        #expect(log.event == "Disk Writes")
        #expect(log.eventDetail == "1.07 GB of writes over 24 hours")
        let metadata = log.diagnostic.metadata
        #expect(metadata.bundleIdentifier == "com.example.fernway")
        #expect(metadata.appVersion == "3.2.0")
        #expect(metadata.appBuildVersion == "412")
        #expect(metadata.deviceType == "iPhone14,2")
        #expect(metadata.osVersionNumber == "17.4.1")
        #expect(metadata.osBuild == "21E237")
        #expect(log.diagnostic.writesCaused?.raw == "1,073.74 MB")
        let tree = try #require(log.diagnostic.callTree)
        #expect(tree.perThread == false)
        #expect(tree.frames.count == 10)
        #expect(tree.totalSamples == 160)
        // The blamed frame keeps its binary UUID and offset (what symbolication needs) beside Apple's symbol.
        let blamed = try #require(tree.frames.first { $0.isBlameFrame == true })
        #expect(blamed.symbolName == "FeedStore.save(_:)")
        #expect(blamed.fileName == "FeedStore.swift")
        #expect(blamed.lineNumber == 188)
        #expect(blamed.binaryUUID == "0E8A3D61-47B2-3C95-8F1A-6D2E5B7C9A40")
        #expect(blamed.imageOffset == 0x41b2c)
        #expect(blamed.loadAddress?.value == 0x1_01f3_c000)
        #expect(blamed.rawFrame?.hasPrefix("FernwayKit 0x") == true)
        #expect(blamed.unknownKeys == nil)
        #expect(tree.label(of: tree.heaviestPath[0]) == "libsqlite3.dylib`sqlite3PagerWrite")
    }

    @Test func hangLogIsAMetricKitHangWithItsMainThread() throws {
        let report = try Self.read(try Self.bytes(Self.hang)).report
        #expect(report.kindCounts == ["hang": 1])
        let diagnostic = try #require(report.logs.first?.diagnostic)
        #expect(diagnostic.kind == .hang)
        #expect(diagnostic.callTree?.stacks.count == 2)
        let thread = try #require(diagnostic.blamedThread)
        #expect(thread.frames.first?.symbol == "sqlite3_step_wait")
        #expect(thread.frames.last?.symbol == "start")
        #expect(thread.frames.contains { $0.isAppFrame == true && $0.symbol == "main" })
    }

    @Test func buildSignaturesWithWeightsAndPaging() throws {
        let result = try Self.read(try Self.bytes(Self.signatures))
        let report = result.report
        #expect(result.diagnostics.isEmpty)
        #expect(report.response == .diagnosticSignatures)
        #expect(report.signatures.count == 3)
        #expect(report.signatures.map(\.diagnosticType) == ["DISK_WRITES", "DISK_WRITES", "HANGS"])
        #expect(report.signatures.map(\.kind) == [.diskWriteException, .diskWriteException, .hang])
        #expect(report.signatures.map(\.weight) == [0.78, 0.13, 0.41])
        #expect(report.kindCounts == ["diskWriteException": 2, "hang": 1])
        #expect(report.signatures[0].relationships != nil)
        #expect(report.links != nil && report.meta != nil)
        #expect(report.logs.isEmpty)
    }

    @Test func recognisesBothResponsesAndNoMetricKitPayload() throws {
        for name in [Self.diskWrites, Self.hang, Self.signatures] {
            let bytes = try Self.bytes(name)
            #expect(AppStoreConnectReader.recognise(bytes, format: ContentSniffer.format(of: bytes)), "\(name)")
        }
        for name in MetricKitCorpusTests.files {
            let bytes = try FileReading.contents(
                atPath: MetricKitCorpusTests.root.appendingPathComponent("Corpus/metrickit/\(name)").path
            )
            #expect(!AppStoreConnectReader.recognise(bytes, format: ContentSniffer.format(of: bytes)), "\(name)")
        }
        // A report about such files names the keys as values, not keys.
        let about = Array(#"{"note": "productData", "keys": ["diagnosticType", "data"]}"#.utf8)
        #expect(!AppStoreConnectReader.recognise(about, format: ContentSniffer.format(of: about)))
    }

    @Test func keyVariantsAreReadWithANote() throws {
        let result = try Self.read(
            json: """
                {"signatureId": "abc", "diagnosticLogs": [{
                  "callStackTree": {"callStackPerThread": true, "callStacks": [{"callStackRootFrames": [
                    {"binaryName": "Fernway", "binaryUUID": "5B1E7C2A-9D43-3F81-A6E0-2C7D94B1F803",
                     "offsetIntoBinaryTextSegment": 4096, "address": 4299821056, "sampleCount": 3}]}]},
                  "diagnosticMetaData": {"bundleIdentifier": "com.example.fernway", "appBuildVersion": "9",
                    "event": "HANGS", "launchId": "x"},
                  "extra": 1}]}
                """
        )
        #expect(Self.codes(result) == ["appstoreconnect.key-variant"])
        #expect(result.diagnostics.count == 4)
        let log = try #require(result.report.logs.first)
        #expect(result.report.response == .diagnosticLogs)
        #expect(log.diagnostic.kind == .hang)
        #expect(log.diagnostic.metadata.bundleIdentifier == "com.example.fernway")
        #expect(log.diagnostic.metadata.appBuildVersion == "9")
        #expect(
            log.diagnostic.metadata.unknownKeys == .object([JSONValue.Member(key: "launchId", value: .string("x"))])
        )
        #expect(log.unknownKeys == .object([JSONValue.Member(key: "extra", value: .number("1"))]))
        #expect(log.diagnostic.callTree?.frames.first?.imageOffset == 4096)
    }

    @Test func flattenedSignatureAndStringWeightAndUnknownType() throws {
        let result = try Self.read(
            json: """
                {"data": [{"id": "s1", "diagnosticType": "THERMAL", "weight": "0.5", "signature": "x"},
                          {"id": "s2", "attributes": {"diagnosticType": "LAUNCHES", "weight": true, "future": 2}}],
                 "included": []}
                """
        )
        #expect(
            Self.codes(result) == [
                "appstoreconnect.key-variant", "appstoreconnect.unknown-event", "appstoreconnect.wrong-type",
            ]
        )
        let report = result.report
        #expect(report.signatures.map(\.weight) == [0.5, nil])
        #expect(report.signatures.map(\.kind) == [nil, .appLaunch])
        #expect(report.signatures[0].diagnosticType == "THERMAL")
        #expect(
            report.signatures[1].unknownKeys
                == .object([
                    JSONValue.Member(key: "weight", value: .bool(true)),
                    JSONValue.Member(key: "future", value: .number("2")),
                ])
        )
        #expect(report.unknownKeys == .object([JSONValue.Member(key: "included", value: .array([]))]))
    }

    @Test func wrongTypesAreFindingsNotFailures() throws {
        let result = try Self.read(
            json: """
                {"productData": [3, {"signatureId": 7, "diagnosticInsights": "none",
                  "diagnosticLogs": [null, {"callStackTree": [5, {"callStacks": [{"callStackRootFrames": [
                    {"binaryName": "A", "lineNumber": "twelve", "subFrames": {"x": 1}}]}]}],
                   "diagnosticMetaData": []}]}], "version": 2}
                """
        )
        #expect(Self.codes(result).isSuperset(of: ["appstoreconnect.wrong-type", "metrickit.wrong-type"]))
        let product = try #require(result.report.products.first)
        #expect(result.report.products.count == 1)
        #expect(result.report.version == "2")
        #expect(product.signatureId == nil)
        #expect(product.logs.count == 1)
        let frame = try #require(product.logs.first?.diagnostic.callTree?.frames.first)
        #expect(frame.lineNumber == nil)
        #expect(frame.unknownKeys == .object([JSONValue.Member(key: "lineNumber", value: .string("twelve"))]))
        #expect(throws: InputError.self) { try Self.read(json: #""productData""#) }
    }

    @Test func deepSubFramesAndHugeCountsStayBounded() throws {
        // subFrames nest two JSON levels per frame: a chain of 450 callers is read whole, without recursion, and one
        // of 5,000 is refused by the parser's depth limit rather than walked.
        func chain(_ depth: Int) -> [UInt8] {
            var frames = ""
            for _ in 0..<depth { frames += #"{"binaryName":"A","sampleCount":1,"subFrames":["# }
            frames += #"{"binaryName":"B"}"# + String(repeating: "]}", count: depth)
            let json =
                #"{"productData":[{"diagnosticLogs":[{"callStackTree":[{"callStacks":[{"callStackRootFrames":["#
                + frames + "]}]}]}]}]}"
            return Array(json.utf8)
        }
        let tree = try #require(try Self.read(chain(450)).report.logs.first?.diagnostic.callTree)
        #expect(tree.frames.count == 451)
        #expect(tree.frames.last?.depth == 450)
        #expect(tree.frames.last?.binaryName == "B")
        do {
            _ = try Self.read(chain(5_000))
            Issue.record("a 5,000-deep chain was read")
        } catch let error as InputError {
            #expect(error.code == .tooDeep)
        }
        // 30,000 logs and 30,000 frames against small budgets: both stop where they are told, with a finding.
        let logs = Array(repeating: #"{"diagnosticMetaData":{"event":"Hang"}}"#, count: 30_000).joined(separator: ",")
        let frames = Array(repeating: #"{"binaryName":"A","sampleCount":1}"#, count: 30_000).joined(separator: ",")
        let manyJSON =
            #"{"productData":[{"diagnosticLogs":[{"callStackTree":[{"callStacks":[{"callStackRootFrames":["#
            + frames + "]}]}]}," + logs + "]}]}"
        let reader = AppStoreConnectReader(reader: MetricKitReader(maxFrames: 1_000), maxEntries: 500)
        let many = try Self.read(Array(manyJSON.utf8), reader: reader)
        #expect(many.report.logs.count == 499)
        #expect(many.report.logs.first?.diagnostic.callTree?.frames.count == 1_000)
        #expect(Self.codes(many).isSuperset(of: ["appstoreconnect.truncated", "metrickit.frames-truncated"]))
        #expect(many.report.kindCounts["hang"] == 498)
    }
}
