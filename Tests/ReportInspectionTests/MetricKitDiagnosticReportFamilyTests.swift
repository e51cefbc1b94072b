import APMInspectCore
import Foundation
import MetricKitParsing
import ReportInspection
import Testing

/// The family of the iOS/macOS 27 `DiagnosticReport`: one folder and one line in the registry, asked before the
/// payload family, reading into the same model.
@Suite struct MetricKitDiagnosticReportFamilyTests {
    static let samples = [
        "metrickit/ios27.0_diagnostic_report_memory_exception.json",
        "metrickit/ios27.0_diagnostic_report_crash_bad_access.json",
        "metrickit/ios27.0_diagnostic_reports_array_hang_and_variants.json",
    ]

    static func input(_ relative: String) throws -> InspectionInput {
        let path = ReportInspectorTests.corpus(relative)
        return InspectionInput(bytes: try FileReading.contents(atPath: path), path: path)
    }

    @Test func isRegisteredBeforeThePayloadFamily() throws {
        let names = ReportInspector.standardFamilies.map(\.name)
        let codable = try #require(names.firstIndex(of: MetricKitDiagnosticReportFamily().name))
        let payloads = try #require(names.firstIndex(of: MetricKitFamily().name))
        #expect(codable < payloads)
    }

    @Test func recognisesTheCodableSamplesAsMetricKit() throws {
        let inspector = ReportInspector()
        for relative in Self.samples {
            let answer = MetricKitDiagnosticReportFamily().inspect(try Self.input(relative), with: inspector)
            #expect(answer?.kind == .metrickit, "\(relative)")
            let inspection = inspector.inspect(path: ReportInspectorTests.corpus(relative))
            #expect(inspection.kind == .metrickit && inspection.failure == nil, "\(relative)")
            guard case .metricKit(let report) = inspection.report else {
                Issue.record("\(relative) is not read into the MetricKit model")
                continue
            }
            #expect(!report.diagnostics.isEmpty, "\(relative)")
        }
    }

    @Test func leavesEveryPayloadFileToThePayloadFamily() throws {
        let folder = ReportInspectorTests.root.appendingPathComponent("Corpus/metrickit").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix("ios27") }
        #expect(names.count >= 7)
        for name in names {
            let input = try Self.input("metrickit/\(name)")
            #expect(MetricKitDiagnosticReportFamily().inspect(input, with: ReportInspector()) == nil, "\(name)")
            #expect(MetricKitFamily().inspect(input, with: ReportInspector())?.kind == .metrickit, "\(name)")
        }
    }

    @Test func aHangIsAnalysedAsThePayloadFamilyDoes() throws {
        let inspection = ReportInspector().inspect(path: ReportInspectorTests.corpus(Self.samples[2]))
        guard case .metricKit(let report) = inspection.report else {
            Issue.record("not read into the MetricKit model")
            return
        }
        let hang = try #require(report.diagnostics.first { $0.kind == .hang })
        #expect(hang.analysis?.verdict == "synchronousFileOrDatabaseIO")
        #expect(inspection.diagnostics.contains { $0.code == .metricKitUnknownResult })
    }
}
