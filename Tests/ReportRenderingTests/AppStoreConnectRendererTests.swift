import APMInspectCore
import Foundation
import ReportInspection
import Testing

@testable import ReportRendering

/// The text view of App Store Connect responses: bounded however many logs a response holds, escaped, and the same
/// names the folded stacks use.
@Suite struct AppStoreConnectRendererTests {
    static func text(_ json: String) throws -> String {
        let inspection = ReportInspector().inspect(bytes: Array(json.utf8), path: "r.json")
        let report = try #require(inspection.report)
        guard case .appStoreConnect(let response) = report else {
            Issue.record("not an App Store Connect response: \(inspection.kind)")
            return ""
        }
        return AppStoreConnectRenderer.render(response, file: "r.json").plain
    }

    @Test func thousandsOfLogsShowTheFirstAndCountTheRest() throws {
        let log =
            #"{"callStackTree":[{"callStackPerThread":false,"callStacks":[{"callStackRootFrames":[{"binaryName":"A","#
            + #""symbolName":"f","address":4096,"offsetIntoBinaryTextSegment":16,"sampleCount":1}]}]}],"#
            + #""diagnosticMetaData":{"event":"Hang","eventDetail":"x\u001b[31m"}}"#
        let json =
            #"{"productData":[{"signatureId":"s","diagnosticLogs":["#
            + Array(repeating: log, count: 2_500).joined(separator: ",") + "]}]}"
        let text = try Self.text(json)
        #expect(text.contains("Logs        2500"))
        #expect(text.components(separatedBy: "\nHang  productData[0].diagnosticLogs[").count - 1 == 20)
        #expect(text.contains("… 2480 more logs (all of them in --format json)"))
        #expect(text.contains("A`f"))
        // Input bytes reach the terminal escaped.
        #expect(!text.contains("\u{1B}"))
    }

    @Test func signaturesAreListedByWeight() throws {
        let text = try Self.text(
            #"{"data":[{"id":"a","attributes":{"diagnosticType":"HANGS","signature":"low","weight":0.1}},"#
                + #"{"id":"b","attributes":{"diagnosticType":"DISK_WRITES","signature":"high","weight":0.9}}]}"#
        )
        let high = try #require(text.range(of: "high"))
        let low = try #require(text.range(of: "low"))
        #expect(high.lowerBound < low.lowerBound)
        #expect(text.contains("90 %"))
    }
}
