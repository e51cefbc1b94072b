import APMInspectCore
import CrashReportParsing
import MetricKitParsing
import Testing

/// `translate` of a MetricKit payload: each crash diagnostic's crash model through Apple's text writer.
@Suite struct MetricKitTranslationTests {
    @Test func crashDiagnosticIsWrittenInApplesLayout() throws {
        let result = try MetricKitCorpusTests.read("ios17.5_crash_objc_exception_nsrangeexception.json")
        let crashes = result.report.crashReports
        #expect(crashes.map(\.keyPath) == ["crashDiagnostics[0]"])
        let crash = try #require(crashes.first)
        let text = CrashTextTranslator().translate(crash.report)
        #expect(text.contains("Report Version:      104"))
        #expect(text.contains("Exception Type:  EXC_CRASH (SIGABRT)"))
        #expect(text.contains("Exception Codes: 0x0000000000000000"))
        #expect(text.contains("Triggered by Thread:  0"))
        #expect(text.contains("'NSRangeException'"))
        #expect(text.contains("Thread 0 Crashed:"))
        // The crashed thread's frames with their image, address and offset into the image.
        #expect(text.contains("10  Fernway                       \t       0x1002e42a8 0x1002c8000 + 115368"))
        #expect(text.contains("18  dyld "))
        #expect(text.contains("Binary Images:"))
        #expect(text.contains("<4f0c2a917b3d3e5a9c112d8e6b40a7f3>"))
        // What the text says reads back as the same crash.
        let back = try CrashReportParser().parse(Array(text.utf8)).report
        #expect(back.exception?.type == "EXC_CRASH" && back.exception?.signal == "SIGABRT")
        #expect(back.crashedThread == 0)
        #expect(back.threads.first?.frames.count == 19)
        #expect(back.threads.first?.frames[10].imageOffset == 115_368)
    }

    @Test func payloadWithoutACrashSaysWhatItHolds() throws {
        let hangs = try MetricKitCorpusTests.read("ios16.4.1_two_payloads_hangs_per_thread_tree.json")
        #expect(hangs.report.crashReports.isEmpty)
        #expect(hangs.report.holdingsDescription == "2 hang diagnostics")
        let metric = try MetricKitCorpusTests.read("ios17.4_metric_payload.json")
        #expect(metric.report.holdingsDescription == "1 metric payload")
        #expect(MetricKitReport().holdingsDescription == "no diagnostic")
        let cpu = try MetricKitCorpusTests.read("ios17.2_cpu_exception_aggregated_tree.json")
        #expect(cpu.report.holdingsDescription == "1 CPU exception diagnostic")
    }

    @Test func severalCrashesAreEachTranslated() throws {
        let frame = """
            {"binaryName":"App","binaryUUID":"U1","address":4295000064,"offsetIntoBinaryTextSegment":32768,
            "sampleCount":1}
            """
        let crash = """
            {"callStackTree":{"callStackPerThread":true,"callStacks":[{"threadAttributed":true,
            "callStackRootFrames":[\(frame)]}]},"diagnosticMetaData":{"exceptionType":1,"signal":11}}
            """
        let text = "{\"crashDiagnostics\":[\(crash),\(crash)],\"hangDiagnostics\":[]}"
        let report = try MetricKitReader().read(Array(text.utf8)).report
        #expect(report.crashReports.map(\.keyPath) == ["crashDiagnostics[0]", "crashDiagnostics[1]"])
        for crash in report.crashReports {
            #expect(CrashTextTranslator().translate(crash.report).contains("EXC_BAD_ACCESS (SIGSEGV)"))
        }
        #expect(report.holdingsDescription == "2 crash diagnostics")
    }
}
