import APMInspectCore
import Foundation
import Testing

@testable import CrashReportParsing

/// KSCrash JSON that is damaged, oddly shaped or hostile: read without trapping, partial with diagnostics.
@Suite struct KSCrashHostileInputTests {
    static let corpusFile = "v3.1.0_ios16.6_arm64_nsexception_unrecognized_selector.json"

    /// A trailing comma (KSCrash's own test resources hold one) is repaired, said, and makes the report partial.
    @Test func trailingCommaIsReadLeniently() throws {
        var text = String(decoding: try KSCrashCorpusTests.bytes(Self.corpusFile), as: UTF8.self)
        let anchor = try #require(text.range(of: "\"type\": \"nsexception\","))
        text.replaceSubrange(anchor, with: "\"type\": \"nsexception\",,")
        text = text.replacingOccurrences(of: "\"launches\": 3,", with: "\"launches\": 3,\n}")
        text = text.replacingOccurrences(of: "\"theme\": \"dark\"\n    }", with: "\"theme\": \"dark\",\n    }")
        let result = try KSCrashReader().parse(Array(text.utf8))
        #expect(result.report.isPartial)
        #expect(result.diagnostics.contains { $0.code == .kscrashLenientJSON })
        #expect(result.diagnostics.contains { $0.location?.line != nil })
        #expect(result.report.exception?.type == "EXC_CRASH")
        #expect(result.report.threads.count == 3)
        #expect(result.report.binaryImages.count == 8)
        // Strict parsing refuses the same bytes with a location.
        #expect(throws: CrashParseError.self) {
            try KSCrashReader(json: .strict).parse(Array(text.utf8))
        }
    }

    /// Cut at every 97th byte: a report or an error, never a trap; a cut report is partial.
    @Test func truncatedAnywhere() throws {
        let bytes = try KSCrashCorpusTests.bytes("v3.2.0_ios17.1_recrash_crash_in_handler_incomplete.json")
        var reports = 0
        for end in stride(from: 1, to: bytes.count, by: 97) {
            guard let result = try? KSCrashReader().parse(Array(bytes[0..<end])) else { continue }
            reports += 1
            #expect(result.report.isPartial, "cut at \(end)")
            _ = CrashTextTranslator().translate(result.report)
            _ = try JSONEncoder().encode(result.report)
        }
        #expect(reports > 10)
    }

    @Test func wrongTypesAreSkippedWithKeyPaths() throws {
        let json = #"""
            {"report": {"id": 7, "timestamp": "yesterday", "version": [1]},
             "system": "not an object",
             "binary_images": [{"image_addr": "zz", "name": "/a/b"}, 3, {"image_addr": 4096, "image_size": -1,
               "name": "", "uuid": "not-a-uuid", "cpu_type": 99}],
             "crash": {"threads": [5, {"backtrace": {"contents": [1, {"instruction_addr": "0x10"}]},
               "crashed": "yes", "registers": {"basic": {"pc": "nope", "lr": 1.5e300}}}],
               "error": {"type": 12, "mach": "EXC_BAD_ACCESS", "signal": {"signal": 99999999999}}}}
            """#
        let result = try KSCrashReader().parse(Array(json.utf8))
        let report = result.report
        let paths = Set(result.diagnostics.compactMap { $0.location?.keyPath })
        #expect(paths.contains("report.timestamp"))
        #expect(paths.contains("system"))
        #expect(paths.contains("binary_images[0]"))
        #expect(paths.contains("crash.threads[0]"))
        #expect(paths.contains("crash.error.mach"))
        #expect(paths.contains("crash.threads[1].backtrace.contents"))
        #expect(report.incidentID == "7")
        #expect(report.binaryImages.count == 1)
        #expect(report.binaryImages[0].base == HexValue(4096))
        #expect(report.binaryImages[0].end == nil || report.binaryImages[0].end == HexValue(4095 &+ UInt64.max))
        #expect(report.binaryImages[0].uuid == "not-a-uuid")
        #expect(report.binaryImages[0].arch == nil)
        #expect(report.threads.count == 2)
        #expect(report.threads[1].frames.count == 2)
        #expect(report.threads[1].frames[1].address == HexValue(0x10))
        #expect(report.threads[1].crashed == false)
        #expect(report.exception == nil)
        _ = CrashTextTranslator().translate(report)
    }

    @Test func limitsCutAndSay() throws {
        let limits = CrashParseLimits(maxFramesPerThread: 2, maxThreads: 1, maxBinaryImages: 3, maxStringBytes: 8)
        let result = try KSCrashReader(limits: limits).parse(try KSCrashCorpusTests.bytes(Self.corpusFile))
        #expect(result.report.isPartial)
        #expect(result.report.threads.count == 1)
        #expect(result.report.threads[0].frames.count == 2)
        #expect(result.report.binaryImages.count == 3)
        #expect((result.report.process?.utf8.count ?? 0) <= 8)
        #expect(result.diagnostics.contains { $0.code == .crashThreadListTruncated })
        #expect(result.diagnostics.contains { $0.code == .crashImageListTruncated })
        #expect(result.diagnostics.contains { $0.code == .crashThreadFramesTruncated })
    }

    /// A million frames in one thread: memory follows the limit, not the input.
    @Test func manyFramesAreCounted() throws {
        var json = #"{"report": {"id": "x"}, "crash": {"threads": [{"crashed": true, "backtrace": {"contents": ["#
        let frame = #"{"instruction_addr": 4096, "object_addr": 4096, "object_name": "a"},"#
        json += String(repeating: frame, count: 200_000)
        json += #"{}]}}]}}"#
        let limits = CrashParseLimits(maxFramesPerThread: 1000)
        let result = try KSCrashReader(limits: limits).parse(Array(json.utf8))
        #expect(result.report.threads[0].frames.count == 1000)
        #expect(result.report.isPartial)
    }

    @Test func hugeAndNegativeNumbers() throws {
        let json = #"""
            {"report": {"timestamp": 99999999999999999999999, "version": {"major": 1e999}},
             "binary_images": [{"image_addr": 18446744073709551615, "image_size": 18446744073709551615, "name": "x"}],
             "crash": {"threads": [{"crashed": true, "backtrace": {"contents": [
               {"instruction_addr": -1, "object_addr": 18446744073709551615, "symbol_addr": 0, "symbol_name": "s"}]}}],
               "error": {"mach": {"exception": -9223372036854775808, "code": -1, "subcode": 1e400}}}}
            """#
        let result = try KSCrashReader().parse(Array(json.utf8))
        #expect(result.report.date == nil)
        #expect(result.report.binaryImages[0].end == nil)
        let frame = result.report.threads[0].frames[0]
        #expect(frame.address == HexValue(UInt64.max))
        #expect(frame.imageOffset == 0)
        #expect(frame.symbolOffset == UInt64.max)
        _ = CrashTextTranslator().translate(result.report)
    }

    @Test func timestampsByMagnitude() throws {
        #expect(KSCrashTimestamp.date(seconds: 0, micros: 0)?.iso8601 == "1970-01-01T00:00:00+00:00")
        #expect(KSCrashTimestamp.date(seconds: 951_782_400, micros: 0)?.iso8601 == "2000-02-29T00:00:00+00:00")
        #expect(KSCrashTimestamp.date(seconds: 253_402_300_799, micros: 0)?.iso8601 == "9999-12-31T23:59:59+00:00")
        #expect(KSCrashTimestamp.date(seconds: 253_402_300_800, micros: 0) == nil)
        #expect(KSCrashTimestamp.date(seconds: -1, micros: 0) == nil)
        let parse = { (text: String) in try JSONDocument(text: text).root }
        #expect(try KSCrashTimestamp.date(parse("1478560643"))?.iso8601 == "2016-11-07T23:17:23+00:00")
        #expect(try KSCrashTimestamp.date(parse("1478560643123"))?.iso8601 == "2016-11-07T23:17:23.123000+00:00")
        #expect(try KSCrashTimestamp.date(parse("1716226564474658"))?.iso8601 == "2024-05-20T17:36:04.474658+00:00")
        #expect(
            try KSCrashTimestamp.date(parse("\"2014-12-02T01:56:13.000Z\""))?.iso8601 == "2014-12-02T01:56:13.000+00:00"
        )
        #expect(try KSCrashTimestamp.date(parse("-5")) == nil)
        #expect(try KSCrashTimestamp.date(parse("true")) == nil)
    }

    /// The 2012 layout: no `report` object, images inside `crash`, flat error keys, the exception's backtrace.
    @Test func legacy2012Layout() throws {
        let json = #"""
            {"crash_id": "1A2B3C4D-0000-4000-8000-00000000A001", "report_version_major": 1, "report_version_minor": 1,
             "timestamp": "2012-05-01T10:00:00Z",
             "system": {"system_name": "iPhone OS", "system_version": "5.1", "os_version": "9B176", "machine": "iPhone4,1",
               "CFBundleExecutable": "Kettle", "CFBundleIdentifier": "org.example.kettle", "process_id": 90, "cpu_arch": "armv7"},
             "crash": {
               "binary_images": [{"image_addr": 4096, "image_size": 8192, "name": "/var/mobile/Applications/X/Kettle.app/Kettle",
                 "uuid": "0123456789ABCDEF0123456789ABCDEF", "cpu_type": 12, "cpu_subtype": 9}],
               "error": {"type": "nsexception", "mach_exception": "EXC_CRASH", "mach_code": 0, "mach_subcode": 0,
                 "signal_name": "SIGABRT", "nsexception_name": "NSRangeException", "nsexception_reason": "index 4 beyond bounds",
                 "nsexception": {"backtrace": [{"instruction_addr": 4200, "object_addr": 4096, "object_name": "Kettle",
                   "symbol_addr": 4196, "symbol_name": "-[KTPot pour]"}]}},
               "threads": [{"crashed": true, "dispatch_queue": "com.apple.main-thread", "backtrace_skipped": 3,
                 "backtrace": [{"instruction_addr": 4300, "object_addr": 4096, "object_name": "Kettle"}]}]}}
            """#
        let root = try JSONDocument(text: json).root
        #expect(KSCrashReader.recognises(root))
        let result = try KSCrashReader().parse(Array(json.utf8))
        let report = result.report
        #expect(report.incidentID == "1A2B3C4D-0000-4000-8000-00000000A001")
        #expect(report.reportVersion == "1.1")
        #expect(report.date?.iso8601 == "2012-05-01T10:00:00+00:00")
        #expect(report.process == "Kettle")
        #expect(report.codeType == "ARM")
        #expect(report.threads[0].registerFlavor == nil)
        #expect(report.exception?.type == "EXC_CRASH")
        #expect(report.exception?.signal == "SIGABRT")
        #expect(
            report.applicationSpecificInformation == [
                "*** Terminating app due to uncaught exception 'NSRangeException', reason: 'index 4 beyond bounds'"
            ]
        )
        #expect(report.lastExceptionBacktrace?.first?.symbol == "-[KTPot pour]")
        #expect(report.lastExceptionBacktrace?.first?.symbolOffset == 4)
        #expect(report.binaryImages.first?.arch == "armv7")
        #expect(report.binaryImages.first?.uuid == "0123456789abcdef0123456789abcdef")
        #expect(report.crashedThread == 0)
        #expect(result.diagnostics.contains { $0.code == .kscrashFramesLeftOut })
    }

    @Test func recrashOnlyFile() throws {
        let json = #"""
            {"recrash_report": {"report": {"id": "R1", "type": "minimal", "version": "3.2.0"},
              "crash": {"error": {"type": "signal", "signal": {"signal": 11}},
                "threads": [{"crashed": true, "backtrace": {"contents": []}}]}}}
            """#
        let result = try KSCrashReader().parse(Array(json.utf8))
        #expect(result.report.isPartial)
        #expect(result.report.incidentID == "R1")
        #expect(result.report.exception?.signal == "SIGSEGV")
        #expect(result.diagnostics.contains { $0.location?.keyPath == "recrash_report" })
    }

    @Test func otherJSONIsRefused() throws {
        for json in [
            #"{"threads": [], "procName": "x", "exception": {}}"#, #"{"log": {"entries": []}}"#, #"[1, 2]"#,
            #"{"report": "x", "crash": {}}"#, #"{"recrash_report": {"recrash_report": {"report": {}, "crash": {}}}}"#,
        ] {
            #expect(!KSCrashReader.recognises(try JSONDocument(text: json).root), "\(json)")
            #expect(throws: CrashParseError.self) { try KSCrashReader().parse(Array(json.utf8)) }
        }
        #expect(throws: CrashParseError.self) { try KSCrashReader().parse([]) }
        #expect(try CrashTextTranslator().translation(ofKSCrash: Array(#"{"a": 1}"#.utf8)) == nil)
    }

    /// KSCrash's `error.address` is the fault address even when the Mach subcode is 0 (as KSCrash's own text says).
    @Test func faultAddressComesFromTheErrorAddress() throws {
        let json = #"""
            {"report": {"id": "F"}, "crash": {"error": {"type": "mach", "address": 4294967295,
              "mach": {"exception": 1, "code": 1, "code_name": "KERN_INVALID_ADDRESS", "subcode": 0},
              "signal": {"signal": 11}}}}
            """#
        let report = try KSCrashReader().parse(Array(json.utf8)).report
        #expect(report.exception?.type == "EXC_BAD_ACCESS")
        #expect(report.exception?.codes == "KERN_INVALID_ADDRESS at 0x00000000ffffffff")
        #expect(report.exception?.codeValues == [HexValue(1), HexValue(0)])
        #expect(report.exception?.faultAddress == HexValue(0xffff_ffff))
        #expect(report.exception?.kernReturn == "KERN_INVALID_ADDRESS")
    }

    /// Bugsnag's fork writes `mach.code` as hex strings and no signal.
    @Test func hexStringCodes() throws {
        let json = #"""
            {"report": {"id": "B"}, "crash": {"error": {"type": "mach", "address": 0,
              "mach": {"exception": 1, "exception_name": "EXC_BAD_ACCESS", "code": "0x1", "code_name": "KERN_INVALID_ADDRESS", "subcode": "0x0"}}}}
            """#
        let report = try KSCrashReader().parse(Array(json.utf8)).report
        #expect(report.exception?.codeValues == [HexValue(1), HexValue(0)])
        #expect(report.exception?.kernReturn == "KERN_INVALID_ADDRESS")
        #expect(report.exception?.signal == nil)
    }
}
