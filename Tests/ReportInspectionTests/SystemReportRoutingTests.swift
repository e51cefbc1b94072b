import APMInspectCore
import Foundation
import ReportInspection
import Testing

/// 409 and the resource reports get kinds of their own, with their models, never a crash's.
@Suite struct SystemReportRoutingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func inspect(_ name: String) -> Inspection {
        ReportInspector().inspect(path: root.appendingPathComponent("Corpus/system/\(name)").path)
    }

    @Test(arguments: [
        ("macos26.4_409_watchdog_compositord_service_unresponsive.ips", FileKind.systemWatchdog),
        ("macos26.4_409_watchdog_pid-1_no_build.ips", .systemWatchdog),
        ("ios26.2_145_disk_writes_photoindexd_action_none.ips", .resourceReport),
        ("ios26.2_202_cpu_usage_nightjar_action_none.ips", .resourceReport),
        ("ios26.2_206_cpu_usage_fatal_nightjar_process_killed.ips", .resourceReport),
    ])
    func eachSampleHasItsKind(name: String, kind: FileKind) {
        let inspection = Self.inspect(name)
        #expect(inspection.kind == kind)
        #expect(inspection.failure == nil)
        switch inspection.report {
        case .systemWatchdog(let report): #expect(report.isNotACrash && kind == .systemWatchdog)
        case .resource(let report): #expect(report.isNotACrash && kind == .resourceReport)
        default: Issue.record("\(name): not a system report model")
        }
    }

    @Test func aResourceReportWithAJSONBodyIsAFailureOfItsKind() {
        let text = #"{"bug_type":"206","timestamp":"2026-01-01 00:00:00.00 +0000"}"# + "\n{\"a\": 1}\n"
        let inspection = ReportInspector().inspect(bytes: Array(text.utf8), path: "x.ips")
        #expect(inspection.kind == .resourceReport)
        #expect(inspection.failure != nil)
    }

    @Test func anUnknownBugTypeIsStillSummarisedWithItsNumber() {
        let text = #"{"bug_type":"987","timestamp":"2026-01-01 00:00:00.00 +0000"}"# + "\n{\"a\": 1}\n"
        let inspection = ReportInspector().inspect(bytes: Array(text.utf8), path: "x.ips")
        #expect(inspection.kind == .otherIPS)
        guard case .ips(let summary) = inspection.report else {
            Issue.record("not summarised")
            return
        }
        #expect(summary.bugType == "987")
        #expect(inspection.diagnostics.contains { $0.code == .ipsUnknownBugType })
    }
}
