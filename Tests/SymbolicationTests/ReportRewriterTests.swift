import APMInspectCore
import CrashReportParsing
import Foundation
import Testing

@testable import Symbolication

@Suite struct ReportRewriterTests {
    private let symbolicator = ReportSymbolicator(source: SampleReports.source, demangle: SampleReports.demangle)

    @Test func textKeepsItsLayoutAndRewritesResolvedFramesAsSymbolicatecrashDoes() throws {
        let bytes = Array(SampleReports.text.utf8)
        let report = try SampleReports.parse(SampleReports.text)
        let outcome = symbolicator.symbolicate(report)
        let rewritten = String(
            decoding: TextReportRewriter.rewrite(bytes, original: report, outcome: outcome),
            as: UTF8.self
        )
        let expected = SampleReports.text
            .replacingOccurrences(
                of: """
                    1   Demo                          \t0x0000000104a08f2c 0x104a00000 + 36652
                    2   Demo                          \t0x0000000104a08e10 0x104a00000 + 36368
                    3   dyld                          \t0x00000001c1f4b344 start + 1860
                    """,
                with: """
                    1   Demo                          \t0x0000000104a08f2c scale(_:) + 12 (scale.h:4) [inlined]
                    2   Demo                          \t0x0000000104a08f2c main + 44 (main.c:12)
                    3   Demo                          \t0x0000000104a08e10 compute + 16 (main.c:20)
                    4   dyld                          \t0x00000001c1f4b344 start + 1860
                    """
            )
            .replacingOccurrences(
                of: "0   Demo                          \t0x0000000104a08e00 0x104a00000 + 36352",
                with: "0   Demo                          \t0x0000000104a08e00 compute + 0 (main.c:20)"
            )
        #expect(rewritten == expected)
        // Read back, the text gives the symbolicated model.
        let reread = try SampleReports.parse(rewritten)
        #expect(reread.threads[0].frames.count == 5)
        #expect(reread.threads[0].frames[1].symbol?.hasPrefix("scale(_:)") == true)
        #expect(reread.threads[0].frames.map(\.symbol).suffix(3) == ["main", "compute", "start"])
        #expect(reread.threads[0].frames[2].file == "main.c")
        #expect(reread.threads[0].frames[2].line == 12)
    }

    @Test func unchangedReportsAreWrittenByteForByte() throws {
        let bytes = Array(SampleReports.text.utf8)
        let report = try SampleReports.parse(SampleReports.text)
        let outcome = ReportSymbolicator(source: TableSource(images: [:])).symbolicate(report)
        #expect(TextReportRewriter.rewrite(bytes, original: report, outcome: outcome) == bytes)
        let ips = Array(SampleReports.ips.utf8)
        let ipsReport = try SampleReports.parse(SampleReports.ips)
        let ipsOutcome = ReportSymbolicator(source: TableSource(images: [:])).symbolicate(ipsReport)
        #expect(IPSReportRewriter.rewrite(ips, original: ipsReport, outcome: ipsOutcome) == ips)
    }

    @Test func ipsStaysJSONWithAppleFrameKeysAndOtherKeysUntouched() throws {
        let bytes = Array(SampleReports.ips.utf8)
        let report = try SampleReports.parse(SampleReports.ips)
        let outcome = symbolicator.symbolicate(report)
        let rewritten = try #require(IPSReportRewriter.rewrite(bytes, original: report, outcome: outcome))
        let text = String(decoding: rewritten, as: UTF8.self)
        // The header line and the members around the frames are as written.
        let headerLine = SampleReports.ips.prefix { $0 != "\n" }
        #expect(text.hasPrefix(headerLine + "\n{\n  \"uptime\" : 1000,"))
        #expect(text.contains("\"vmSummary\" : \"kept as written\""))
        #expect(
            text.contains("{\"imageOffset\":12640,\"symbol\":\"__pthread_kill\",\"symbolLocation\":8,\"imageIndex\":2}")
        )
        #expect(
            text.contains(
                "{\"imageOffset\":36652,\"imageIndex\":0,\"symbol\":\"scale(_:)\",\"symbolLocation\":12,"
                    + "\"sourceFile\":\"scale.h\",\"sourceLine\":4,\"inline\":true},"
                    + "{\"imageOffset\":36652,\"imageIndex\":0,\"symbol\":\"main\",\"symbolLocation\":44,"
                    + "\"sourceFile\":\"main.c\",\"sourceLine\":12}"
            )
        )
        // Read back, it is the symbolicated report.
        let reread = try SampleReports.parse(text)
        #expect(reread.threads[0].frames.map(\.symbol) == ["__pthread_kill", "scale(_:)", "main", "compute"])
        #expect(reread.threads[0].frames[1].inlined == true)
        #expect(reread.threads[1].frames[0].symbol == "compute")
        #expect(reread.threads[1].frames[0].symbolOffset == 0)
        #expect(reread.signature == outcome.report.signature)
    }

    @Test func symbolsWithQuotesAndControlBytesAreEscapedInJSON() {
        #expect(IPSReportRewriter.quoted("a\"b\\c\n\u{1}") == "\"a\\\"b\\\\c\\n\\u0001\"")
    }

    /// KSCrash's text with the report of a crash in its own handler after `Handler crashed while reporting:`: the
    /// recrash report's frames are resolved against the report's images, and their lines rewritten in place.
    @Test func recrashFramesAreSymbolicatedInPlace() throws {
        let text =
            SampleReports.text + """

                Handler crashed while reporting:

                Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
                Exception Codes: KERN_INVALID_ADDRESS at 0x0000000000000010
                Triggered by Thread:  1

                Thread 1 name:  KSCrash Exception Handler (Primary)
                Thread 1 Crashed:
                0   Demo                          \t0x0000000104a08d90 0x104a00000 + 36240
                1   libsystem_kernel.dylib        \t0x00000001e0a2e160 __pthread_kill + 8

                Recrash Diagnosis: Attempted to dereference garbage pointer 0x10.
                """
        let report = try SampleReports.parse(text)
        let recrash = try #require(report.recrashReport)
        #expect(recrash.threads.first?.frames.first?.symbol == nil)
        let outcome = symbolicator.symbolicate(report)
        let resolved = try #require(outcome.report.recrashReport?.threads.first)
        #expect(resolved.frames.first?.symbol == "run")
        #expect(resolved.frames.first?.line == 30)
        #expect(outcome.report.recrashReport?.signatureFrames?.first == "Demo`run")
        // The report's own frames are resolved as without the recrash.
        #expect(outcome.report.threads[0].frames.map(\.symbol).suffix(3) == ["main", "compute", "start"])
        let rewritten = String(
            decoding: TextReportRewriter.rewrite(Array(text.utf8), original: report, outcome: outcome),
            as: UTF8.self
        )
        #expect(rewritten.contains("0   Demo                          \t0x0000000104a08d90 run + 16 (main.c:30)\n"))
        #expect(!rewritten.contains("0x104a00000 + 36240"))
        let reread = try SampleReports.parse(rewritten)
        #expect(reread.recrashReport?.threads.first?.frames.first?.symbol == "run")
        #expect(reread.crashedThread == 0)
    }
}

@Suite struct ReportRewriterScaleTests {
    /// 20,000 app frames in one thread, every one resolving to an inline chain: the work stays linear (a quadratic
    /// pass over frames or identical lines would take minutes here).
    @Test(.timeLimit(.minutes(1)))
    func aHugeThreadIsRewrittenInLinearTime() throws {
        var lines = SampleReports.text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "Thread 0 Crashed:") else {
            Issue.record("the sample has no crashed thread")
            return
        }
        let frame = "1   Demo                          \t0x0000000104a08f2c 0x104a00000 + 36652"
        lines.insert(contentsOf: Array(repeating: frame, count: 20_000), at: start + 2)
        let text = lines.joined(separator: "\n")
        let report = try SampleReports.parse(text)
        let symbolicator = ReportSymbolicator(source: SampleReports.source, demangle: SampleReports.demangle)
        let outcome = symbolicator.symbolicate(report)
        let rewritten = TextReportRewriter.rewrite(Array(text.utf8), original: report, outcome: outcome)
        let count = report.threads[0].frames.count
        #expect(count > 1000)
        #expect(outcome.report.threads[0].frames.count > count)
        let output = String(decoding: rewritten, as: UTF8.self)
        #expect(output.components(separatedBy: "scale(_:) + 12 (scale.h:4) [inlined]").count > 1000)
    }
}

@Suite struct ReportRewriterExceptionTests {
    /// An `.ips` Last Exception Backtrace is rewritten like a thread, every frame a return address.
    @Test func theJSONLastExceptionBacktraceIsRewrittenToo() throws {
        let ips = SampleReports.ips.replacingOccurrences(
            of: "\"faultingThread\" : 0,",
            with: "\"faultingThread\" : 0,\n  \"lastExceptionBacktrace\" : [{\"imageOffset\":36653,\"imageIndex\":0}],"
        )
        let report = try SampleReports.parse(ips)
        #expect(report.lastExceptionBacktrace?.count == 1)
        let symbolicator = ReportSymbolicator(source: SampleReports.source, demangle: SampleReports.demangle)
        let outcome = symbolicator.symbolicate(report)
        let rewritten = try #require(IPSReportRewriter.rewrite(Array(ips.utf8), original: report, outcome: outcome))
        let reread = try SampleReports.parse(String(decoding: rewritten, as: UTF8.self))
        // 0x100008f2d − 1 lies in scale's inlined range: the chain, offsets from the written address.
        #expect(reread.lastExceptionBacktrace?.map(\.symbol) == ["scale(_:)", "main"])
        #expect(reread.lastExceptionBacktrace?.map(\.symbolOffset) == [0xD, 0x2D])
        #expect(reread.lastExceptionBacktrace?.first?.inlined == true)
    }

}
