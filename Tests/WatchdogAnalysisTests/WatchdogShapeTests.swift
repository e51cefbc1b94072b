import APMInspectCore
import CrashReportParsing
import Testing

@testable import WatchdogAnalysis

/// Shapes too small for a corpus file: watchOS, macOS WATCHDOG, stackshots, the CPU-allowance variant.
@Suite struct WatchdogShapeTests {
    private func watchdog(_ text: String) throws -> WatchdogTermination {
        let report = try CrashReportParser().parse(Array(text.utf8)).report
        return try #require(WatchdogDetector.analyze(report))
    }

    @Test func watchOSCarousel() throws {
        let result = try watchdog(
            "Process: Pulse WatchKit Extension [220]\nTermination Reason: CAROUSEL, WatchConnectivity watchdog transgression. "
                + "Exhausted wall time allowance of 15.00 seconds.\n"
        )
        #expect(result.namespace == "CAROUSEL")
        #expect(result.kind == .watchdogTimeout)
        #expect(result.allowanceSeconds == 15)
        #expect(result.event == "WatchConnectivity")
    }

    @Test func stackshotIsNotACrash() throws {
        let result = try watchdog(
            "Process: SpringBoard [52]\nException Type: 00000020\nException Codes: 0x00000000baaaaaad\n"
        )
        #expect(result.kind == .stackshot)
        #expect(result.diagnosis == nil)
    }

    @Test func cpuAllowanceKindIsKept() throws {
        let result = try watchdog(
            "Process: A [9]\nTermination Reason: Namespace SPRINGBOARD, Code 0x8badf00d\n"
                + "Termination Description: SPRINGBOARD, process-launch watchdog transgression: application<com.x.y>:9 "
                + "exhausted CPU time allowance of 2.50 seconds\n"
        )
        #expect(result.allowanceKind == "CPU")
        #expect(result.allowanceSeconds == 2.5)
        #expect(result.event == "process-launch")
        #expect(result.bundleId == "com.x.y")
    }

    @Test func unknownCodesInAnOSNamespaceAreOther() throws {
        let result = try watchdog(
            "Process: A [9]\nTermination Reason: Namespace SPRINGBOARD, Code 0x12345678\nTermination Description: odd\n"
        )
        #expect(result.kind == .other)
        #expect(result.code == HexValue(0x1234_5678))
    }
}
