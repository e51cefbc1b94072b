import APMInspectCore
import Foundation
import MetricKitParsing
import ReportInspection
import Symbolication
import Testing

/// `--dsym`/`--symbols` on App Store Connect logs: frames Apple left unnamed are named from the user's debug
/// information by binary UUID and offset; frames Apple named are kept.
@Suite struct AppStoreConnectSymbolicationTests {
    /// One function of the app's framework, at file addresses 0x41000..<0x42000 above a `__TEXT` at 0x100000000.
    struct OneFunction: AddressResolver {
        func locations(at fileAddress: UInt64) -> [SymbolicatedLocation] {
            guard (0x1_0004_1000..<0x1_0004_2000).contains(fileAddress) else { return [] }
            return [
                SymbolicatedLocation(
                    symbol: "FeedStore.save(_:)",
                    symbolOffset: fileAddress - 0x1_0004_1000,
                    file: "FeedStore.swift",
                    line: 188
                )
            ]
        }
    }

    struct Source: SymbolSource {
        func image(uuid: String, arch: String?) -> SymbolLookup {
            guard uuid == "0e8a3d6147b23c958f1a6d2e5b7c9a40" else { return .missing }
            return .found(SymbolImage(textVMAddress: 0x1_0000_0000, resolver: OneFunction(), origin: "test"))
        }
    }

    static let response = """
        {"productData": [{"signatureId": "s", "diagnosticLogs": [{
          "callStackTree": [{"callStackPerThread": false, "callStacks": [{"callStackRootFrames": [
            {"binaryName": "libsqlite3.dylib", "binaryUUID": "A1C4E6F8-2B3D-3E5F-9071-8293A4B5C6D7",
             "address": 7296459236, "offsetIntoBinaryTextSegment": 574948, "sampleCount": 9,
             "symbolName": "sqlite3PagerWrite", "subFrames": [
              {"binaryName": "FernwayKit", "binaryUUID": "0E8A3D61-47B2-3C95-8F1A-6D2E5B7C9A40",
               "address": 4327922476, "offsetIntoBinaryTextSegment": 269100, "sampleCount": 9}]}]}]}],
          "diagnosticMetaData": {"event": "Disk Writes", "bundleId": "com.example.fernway"}}]}]}
        """

    @Test func unnamedFramesAreNamedFromTheDSYMAndAppleNamesAreKept() throws {
        let inspector = ReportInspector(symbolicator: ReportSymbolicator(source: Source()))
        let inspection = inspector.inspect(bytes: Array(Self.response.utf8), path: "logs.json")
        #expect(inspection.kind == .appStoreConnect)
        guard case .appStoreConnect(let report) = inspection.report else {
            Issue.record("no model")
            return
        }
        let frames = try #require(report.logs.first?.diagnostic.callTree?.frames)
        #expect(frames.map(\.symbolName) == ["sqlite3PagerWrite", "FeedStore.save(_:)"])
        #expect(frames[1].fileName == "FeedStore.swift")
        #expect(frames[1].lineNumber == 188)
        // libsqlite3 was named by Apple: never looked up, so no "no dSYM" finding for it.
        #expect(inspection.diagnostics.isEmpty)
        // Without a symbolicator the frame stays unnamed.
        let plain = ReportInspector().inspect(bytes: Array(Self.response.utf8), path: "logs.json")
        guard case .appStoreConnect(let unnamed) = plain.report else {
            Issue.record("no model")
            return
        }
        #expect(unnamed.logs.first?.diagnostic.callTree?.frames.last?.symbolName == nil)
    }

    @Test func aBinaryWithoutDebugInformationIsSaidOnceAtTheTree() throws {
        let json = Self.response.replacingOccurrences(of: "\"symbolName\": \"sqlite3PagerWrite\",", with: "")
        let inspector = ReportInspector(symbolicator: ReportSymbolicator(source: Source()))
        let inspection = inspector.inspect(bytes: Array(json.utf8), path: "logs.json")
        let located = inspection.diagnostics.filter {
            $0.location?.keyPath == "productData[0].diagnosticLogs[0].callStackTree[0]"
        }
        #expect(!located.isEmpty)
        #expect(located.count == inspection.diagnostics.count)
        #expect(inspection.diagnostics.contains { $0.message.contains("libsqlite3.dylib") })
    }
}
