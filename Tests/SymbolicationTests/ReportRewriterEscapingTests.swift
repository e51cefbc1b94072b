import APMInspectCore
import CrashReportParsing
import Foundation
import FuzzReplaySupport
import Testing

@testable import Symbolication

/// A dSYM is input too: a function or file name holding line breaks and terminal controls must not forge frames
/// or binary images in a rewritten text report, nor break the JSON of a rewritten `.ips`.
@Suite struct ReportRewriterEscapingTests {
    /// A name that, written raw, would end its frame line, add a frame, start the image list and add an image.
    static let forging =
        "evil\n0   Forged                        \t0x0000000000000000 main + 0\nBinary Images:\n"
        + "0x0 - 0x1 Forged arm64  <00000000000000000000000000000000> /forged\u{1B}[31m\r\u{0}"
    static let forgingFile = "/src/bad\nname\u{1B}[2J\t\u{202E}.c"

    /// Every app address resolves to a forging name, with a forging inlined callee around 0x100008f2c.
    static let symbolicator: ReportSymbolicator = {
        let resolver = TableResolver(functions: [
            .init(
                name: forging,
                start: 0x1_0000_8D80,
                end: 0x1_0000_8F80,
                file: forgingFile,
                line: 10,
                inlined: ("inner|" + MarkupStructure.hostileField, 0x1_0000_8F20, 0x1_0000_8F30, forgingFile, 4, 12)
            )
        ])
        let source = TableSource(images: [
            SampleReports.appUUID: .found(SymbolImage(textVMAddress: 0x1_0000_0000, resolver: resolver, origin: "x"))
        ])
        return ReportSymbolicator(source: source, demangle: { _ in nil })
    }()

    @Test func aForgingNameStaysInsideItsFrameLineInText() throws {
        let report = try SampleReports.parse(SampleReports.text)
        let outcome = Self.symbolicator.symbolicate(report)
        #expect(outcome.resolvedFrames == 3)
        let bytes = TextReportRewriter.rewrite(Array(SampleReports.text.utf8), original: report, outcome: outcome)
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let written = SampleReports.text.split(separator: "\n", omittingEmptySubsequences: false)
        // One line per frame: the inlined callee adds the only new line.
        #expect(lines.count == written.count + 1)
        #expect(lines.filter { $0 == "Binary Images:" }.count == 1)
        #expect(!lines.contains { $0.hasPrefix("0   Forged") || $0.hasPrefix("0x0 - 0x1 Forged") })
        #expect(!MarkupStructure.hasRawControl(text))
        #expect(!text.contains("\u{202E}"))
        let shownName = TerminalText.escaped(Self.forging)
        #expect(lines.filter { $0.contains(shownName) }.count == 3)
        #expect(text.contains(#"(bad\nname\x1b[2J\t\u{202e}.c:"#))
        // Read back: the same threads, frames and images; none of them forged.
        let reread = try SampleReports.parse(text)
        #expect(reread.threads.map(\.frames.count) == [5, 2])
        #expect(reread.binaryImages.count == report.binaryImages.count)
        #expect(!reread.binaryImages.contains { $0.name == "Forged" })
        #expect(reread.threads[0].frames.allSatisfy { $0.image != "Forged" })
    }

    @Test func aForgingNameInACompactExceptionBacktraceStaysOnItsLine() throws {
        let text = SampleReports.text.replacingOccurrences(
            of: "Thread 0 Crashed:",
            with: "Last Exception Backtrace:\n(0x104a08e10 0x104a08f2c)\n\nThread 0 Crashed:"
        )
        let report = try SampleReports.parse(text)
        #expect(report.lastExceptionBacktrace?.count == 2)
        let outcome = Self.symbolicator.symbolicate(report)
        let bytes = TextReportRewriter.rewrite(Array(text.utf8), original: report, outcome: outcome)
        let rewritten = String(decoding: bytes, as: UTF8.self)
        #expect(!MarkupStructure.hasRawControl(rewritten))
        let lines = rewritten.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { $0 == "Binary Images:" }.count == 1)
        let reread = try SampleReports.parse(rewritten)
        // Two addresses, the second an inline chain of two: three frame lines, no forged one.
        #expect(reread.lastExceptionBacktrace?.count == 3)
        #expect(reread.binaryImages.count == report.binaryImages.count)
    }

    @Test func aForgingNameIsEscapedByTheJSONEncoderInAnIPS() throws {
        let report = try SampleReports.parse(SampleReports.ips)
        let outcome = Self.symbolicator.symbolicate(report)
        let bytes = try #require(
            IPSReportRewriter.rewrite(Array(SampleReports.ips.utf8), original: report, outcome: outcome)
        )
        let text = String(decoding: bytes, as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else {
            Issue.record("the rewritten .ips has no header line")
            return
        }
        // The body is valid JSON: each frame one object, each name one string member.
        let body = try JSONSerialization.jsonObject(with: Data(text[text.index(after: newline)...].utf8))
        let threads = try #require((body as? [String: Any])?["threads"] as? [[String: Any]])
        let frames = try #require(threads.first?["frames"] as? [[String: Any]])
        #expect(frames.count == 4)
        #expect(frames.compactMap { $0["symbol"] as? String }.contains(Self.forging))
        let reread = try SampleReports.parse(text)
        #expect(reread.threads.map(\.frames.count) == [4, 2])
        #expect(reread.threads[0].frames[2].symbol == Self.forging)
        #expect(reread.binaryImages.count == report.binaryImages.count)
    }
}
