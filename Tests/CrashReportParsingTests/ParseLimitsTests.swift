import APMInspectCore
import Testing

@testable import CrashReportParsing

/// Reports far larger than any device writes: past each ``CrashParseLimits`` limit lines are counted, not modelled,
/// with one warning per limit, and everything before the cut is exactly what an uncapped parse reads.
@Suite struct ParseLimitsTests {
    /// 5 threads of 40,000 frames (200,000 in all) and 10 images, read under small limits so that each one fires.
    private static let lowered = CrashParseLimits(
        maxFramesPerThread: 30_000,
        maxTotalFrames: 80_000,
        maxThreads: 4,
        maxBinaryImages: 5
    )
    private static let threadCount = 5
    private static let framesPerThread = 40_000
    private static let imageCount = 10

    private static func textReport() -> [UInt8] {
        var text = """
            Incident Identifier: 1A2B3C4D-0000-0000-0000-000000000000
            Hardware Model: iPhone14,2
            Process: App [123]
            Identifier: com.example.App
            OS Version: iPhone OS 17.0 (21A329)
            Exception Type: EXC_CRASH (SIGABRT)
            Triggered by Thread: 0

            """
        for thread in 0..<threadCount {
            text += "\nThread \(thread)\(thread == 0 ? " Crashed" : ""):\n"
            for k in 0..<framesPerThread {
                text += "\(k)   App   0x\(String(0x1_0000_0000 + k * 16, radix: 16)) sym_\(thread)_\(k) + 12\n"
            }
        }
        text += "\nBinary Images:\n"
        for k in 0..<imageCount {
            let base = 0x1_0000_0000 + k * 0x100000
            text += "0x\(String(base, radix: 16)) - 0x\(String(base + 0xfffff, radix: 16)) Image\(k) arm64  "
            text += "<0123456789abcdef0123456789abcdef> /usr/lib/Image\(k)\n"
        }
        return Array(text.utf8)
    }

    private static func jsonReport(procName: String = "App", message: String = "boom") -> [UInt8] {
        var text = #"{"bug_type":"309","os_version":"iPhone OS 17.0 (21A329)","name":"App"}"# + "\n"
        text += #"{"procName":"\#(procName)","exception":{"type":"EXC_CRASH","signal":"SIGABRT","#
        text += #""message":"\#(message)"},"faultingThread":0,"usedImages":["#
        let images = (0..<imageCount).map {
            #"{"base":\#(0x1_0000_0000 + $0 * 0x100000),"size":1048576,"name":"Image\#($0)"}"#
        }
        text += images.joined(separator: ",")
        text += #"],"threads":["#
        for thread in 0..<threadCount {
            if thread > 0 { text += "," }
            text += #"{"id":\#(thread + 100),"frames":["#
            text += (0..<framesPerThread).map {
                #"{"imageOffset":\#($0 * 16),"symbol":"sym_\#(thread)_\#($0)","symbolLocation":12,"imageIndex":0}"#
            }.joined(separator: ",")
            text += "]}"
        }
        text += "]}\n"
        return Array(text.utf8)
    }

    private struct FrameKey: Equatable {
        let index: Int
        let image: String?
        let address: UInt64?
        let symbol: String?
        let offset: UInt64?

        init(_ frame: CrashReport.Frame) {
            index = frame.index
            image = frame.image
            address = frame.address?.value
            symbol = frame.symbol
            offset = frame.symbolOffset
        }
    }

    /// The capped report is the uncapped one cut at the limits, frame for frame and image for image.
    private static func expectPrefix(_ capped: CrashReport, of full: CrashReport, keptFrames: [Int]) {
        #expect(capped.threads.count == keptFrames.count)
        for (position, kept) in keptFrames.enumerated() where position < capped.threads.count {
            let frames = capped.threads[position].frames
            #expect(frames.count == kept)
            #expect(capped.threads[position].index == full.threads[position].index)
            #expect(frames.map(FrameKey.init) == full.threads[position].frames.prefix(kept).map(FrameKey.init))
        }
        #expect(capped.binaryImages.map(\.name) == full.binaryImages.prefix(5).map(\.name))
        #expect(capped.binaryImages.map(\.base) == full.binaryImages.prefix(5).map(\.base))
        #expect(capped.process == full.process)
        #expect(capped.crashedThread == full.crashedThread)
        let partial = capped.isPartial
        #expect(partial)
    }

    private static func warnings(_ result: CrashParseResult) -> Set<Diagnostic.Code> {
        Set(result.diagnostics.filter { $0.severity == .warning }.map(\.code))
    }

    /// The codes of the limits on threads, frames and images.
    private static let countLimits: Set<Diagnostic.Code> = [
        .crashThreadFramesTruncated, .crashFramesTruncated, .crashThreadListTruncated, .crashImageListTruncated,
    ]

    @Test func textReportIsCutAtEachLimitWithAWarning() throws {
        let bytes = Self.textReport()
        let full = try CrashReportParser().parse(bytes)
        #expect(full.report.threads.map(\.frames.count) == Array(repeating: 40_000, count: 5))
        #expect(full.report.binaryImages.count == 10)
        #expect(Self.warnings(full).isDisjoint(with: Self.countLimits))

        let capped = try CrashReportParser(limits: Self.lowered).parse(bytes)
        // 30,000 + 30,000 + 20,000 reach the 80,000 in all; thread 3 is kept empty, thread 4 past the thread limit.
        Self.expectPrefix(capped.report, of: full.report, keptFrames: [30_000, 30_000, 20_000, 0])
        #expect(Self.warnings(capped).isSuperset(of: Self.countLimits))
        let messages = capped.diagnostics.map(\.message)
        // wording: the message counts what was left out and names the limit it was past.
        #expect(messages.contains("20000 frame(s) past the limit of 30000 frames per thread were counted, not read"))
    }

    @Test func jsonReportIsCutAtEachLimitWithAWarning() throws {
        let bytes = Self.jsonReport()
        let full = try CrashReportParser().parse(bytes)
        #expect(full.report.threads.map(\.frames.count) == Array(repeating: 40_000, count: 5))
        #expect(full.report.binaryImages.count == 10)
        #expect(Self.warnings(full).isDisjoint(with: Self.countLimits))

        let capped = try CrashReportParser(limits: Self.lowered).parse(bytes)
        Self.expectPrefix(capped.report, of: full.report, keptFrames: [30_000, 30_000, 20_000, 0])
        #expect(capped.report.threads.map(\.id) == full.report.threads.prefix(4).map(\.id))
        #expect(Self.warnings(capped).isSuperset(of: Self.countLimits))
    }

    @Test func aHugeJSONStringIsCutAtTheStringLimit() throws {
        let name = String(repeating: "N", count: 2_000_000)
        // `\u00e9` escapes straddle the cut: the kept text must still be a prefix of the decoded whole.
        let message = String(repeating: #"ab\u00e9\n"#, count: 100_000)
        let result = try CrashReportParser().parse(Self.jsonReport(procName: name, message: message))
        let limit = CrashParseLimits().maxStringBytes
        let process = try #require(result.report.process)
        #expect(process.utf8.count == limit)
        #expect(process.utf8.allSatisfy { $0 == UInt8(ascii: "N") })
        let kept = try #require(result.report.exception?.message)
        let whole = String(repeating: "ab\u{e9}\n", count: 100_000)
        #expect(kept.utf8.count <= limit)
        // 10 bytes as written (`ab\u00e9\n`) are 5 decoded: about half the limit survives.
        #expect(kept.utf8.count > limit / 3)
        #expect(whole.hasPrefix(kept))
        #expect(Self.warnings(result).contains(.crashStringTruncated))
        // The rest of the report is read as usual.
        #expect(result.report.threads.count == 5)
    }

    @Test func aHeaderLineOverTheLimitIsNotReadAsAHeader() throws {
        let longName = String(repeating: "x", count: 2_000_000)
        let header = #"{"bug_type":"309","os_version":"iPhone OS 17.0 (21A329)","name":"\#(longName)"}"#
        var bytes = Array(header.utf8)
        let container = IPSContainer(bytes: bytes)
        #expect(container.header == nil)
        let warning = try #require(container.diagnostics.first { $0.severity == .warning })
        #expect(warning.code == .ipsHeaderLineTooLong)
        #expect(warning.location?.line == 1)
        // A header line alone: no crash keys, so a clear refusal rather than a crash.
        #expect(throws: CrashParseError.self) { try CrashReportParser().parse(bytes) }

        // With a body after it, the body is still the report, read whole.
        bytes += [0x0A] + Self.jsonReport().drop { $0 != 0x0A }.dropFirst()
        let result = try CrashReportParser().parse(bytes)
        #expect(result.report.process == "App")
        #expect(result.report.threads.count == 5)
        #expect(result.diagnostics.map(\.code).contains(.ipsHeaderLineTooLong))

        // Under the limit the same header is read as one.
        let short = IPSContainer(bytes: Array(header.utf8), maxHeaderLineBytes: 4_000_000)
        #expect(short.header?.name == longName)
    }
}
