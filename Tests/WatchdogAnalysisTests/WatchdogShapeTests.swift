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

/// Case 20 of the crash-report research (§7): watchdog text in its awkward shapes.
@Suite struct WatchdogEdgeCaseTests {
    @Test func case20PipesQuotedReasonsThermalAndUnknownEvents() throws {
        let piped = try CrashReportParser().parse(
            Array(
                ("Process: Quill [412]\nTermination Reason: Namespace SPRINGBOARD, Code 0x8badf00d\n"
                    + "Termination Description: SPRINGBOARD, scene-update watchdog transgression: application<com.example.quill>:412 "
                    + "exhausted real (wall clock) time allowance of 10.00 seconds | ProcessVisibility: Foreground | "
                    + "ProcessState: Running | WatchdogEvent: scene-update | WatchdogVisibility: Foreground | "
                    + "WatchdogCPUStatistics: ( | \"Elapsed total CPU time (seconds): 3.430 (user 3.430, system 0.000), 17% CPU\", | "
                    + "\"Elapsed application CPU time (seconds): 0.120, 1% CPU\" | )\n").utf8
            )
        ).report
        let text = try #require(WatchdogDetector.analyze(piped))
        #expect(text.event == "scene-update")
        #expect(text.processVisibility == "Foreground")
        #expect(text.allowanceSeconds == 10)
        #expect(text.cpu != nil)
        let header = #"{"bug_type":"309","name":"Quill","os_version":"iPhone OS 17.2 (21C62)"}"#
        let body = #"""
            {"procName":"Quill","pid":412,"faultingThread":0,"threads":[{"triggered":true,"frames":[]}],
            "termination":{"namespace":"RUNNINGBOARD","code":3306176511,"reasons":[
            "<RBSTerminateContext| domain:10 code:0xC51BAD01 explanation:process-exit watchdog transgression: \"quoted\",",
            "WatchdogEvent: process-warp",
            ") ThermalInfo: (",
            "\"Thermal Level:   3\",",
            "\"Thermal State:   serious\"",
            ") reportType:CrashLog maxTerminationResistance:NonInteractive>"]}}
            """#
        let json = try CrashReportParser().parse(Array((header + "\n" + body).utf8)).report
        let parsed = try #require(WatchdogDetector.analyze(json))
        #expect(parsed.namespace == "RUNNINGBOARD")
        #expect(parsed.event == "process-warp")
        #expect(parsed.thermal?.level == 3)
        #expect(parsed.thermal?.state == "serious")
        // The reasons stay verbatim in the report; the watchdog's text has the quotes and trailing commas removed.
        #expect(json.termination?.reasons.first?.hasSuffix("\"quoted\",") == true)
        #expect(parsed.raw?.contains("transgression: quoted") == true)
    }
}
