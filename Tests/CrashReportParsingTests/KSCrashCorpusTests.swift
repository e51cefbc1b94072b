import APMInspectCore
import Foundation
import Testing

@testable import CrashReportParsing

/// Corpus/kscrash: each report read into the reviewed expected output, its key facts, and the round trip through
/// Apple's text layout and the text parser.
@Suite struct KSCrashCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var names: [String] {
        let folder = root.appendingPathComponent("Corpus/kscrash").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    static func read(_ name: String) throws -> CrashParseResult {
        try KSCrashReader().parse(try bytes(name))
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        try FileReading.contents(atPath: root.appendingPathComponent("Corpus/kscrash/\(name)").path)
    }

    @Test func corpusIsThere() {
        #expect(Self.names.count >= 6)
    }

    @Test(arguments: names)
    func recognisedByContent(name: String) throws {
        let bytes = try Self.bytes(name)
        #expect(ContentSniffer.mentionsKSCrashKeys(bytes))
        #expect(KSCrashReader.recognises(try JSONDocument(bytes: bytes).root))
        // An Apple .ips reader refuses it: KSCrash JSON has no bug_type 309 keys.
        #expect(throws: CrashParseError.self) { try CrashReportParser().parse(bytes) }
    }

    @Test(arguments: names)
    func roundTripThroughAppleText(name: String) throws {
        let bytes = try Self.bytes(name)
        let report = try Self.read(name).report
        let translated = try #require(try CrashTextTranslator().translation(ofKSCrash: bytes))
        let back = try CrashReportParser().parse(Array(translated.text.utf8)).report
        // A signal without a Mach exception is written as PLCrashReporter writes it (`Exception Type:  SIGKILL`),
        // which the text parser reads as both the type and the signal.
        var written = report
        if written.exception?.type == nil, let signal = written.exception?.signal { written.exception?.type = signal }
        try TranslationTests.expectSameModel(written, back)
        #expect(back.bundleId == report.bundleId)
        #expect(back.appVersion == report.appVersion)
        #expect(back.appBuild == report.appBuild)
        #expect(back.hardwareModel == report.hardwareModel)
        #expect(back.osVersion == report.osVersion)
        #expect(back.codeType == report.codeType)
        #expect(back.applicationSpecificInformation == report.applicationSpecificInformation)
        #expect(back.signature == report.signature)
        if let crashed = report.crashedThread {
            let registers = report.threads[crashed].registers ?? []
            let backRegisters = back.threads[crashed].registers ?? []
            for name in ["pc", "lr", "sp", "fp", "far"] {
                #expect(
                    backRegisters.first { $0.name == name }?.value == registers.first { $0.name == name }?.value,
                    "register \(name)"
                )
            }
        }
    }

    @Test func nsexception() throws {
        let result = try Self.read("v3.1.0_ios16.6_arm64_nsexception_unrecognized_selector.json")
        let report = result.report
        #expect(result.diagnostics.isEmpty)
        #expect(report.sourceFormat == .kscrash)
        #expect(report.incidentID == "A7C3E915-2F6B-4D08-B1E4-9C52D0F8A361")
        #expect(report.process == "Driftwood")
        #expect(report.pid == 3318)
        #expect(report.bundleId == "net.saltwind.driftwood")
        #expect(report.appVersion == "4.2.1")
        #expect(report.appBuild == "421")
        #expect(report.hardwareModel == "iPhone14,5")
        #expect(report.osVersion == "iOS 16.6 (20G75)")
        #expect(report.osBuild == "20G75")
        #expect(report.codeType == "ARM-64")
        #expect(report.reportVersion == "3.1.0")
        #expect(report.date?.iso8601 == "2024-03-04T09:26:51+00:00")
        #expect(report.launchTime?.iso8601 == "2024-03-04T09:26:09+00:00")
        #expect(report.exception?.type == "EXC_CRASH")
        #expect(report.exception?.signal == "SIGABRT")
        #expect(report.exception?.codes == "0x0000000000000000, 0x0000000000000000")
        #expect(
            report.applicationSpecificInformation == [
                "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: "
                    + "'-[__NSCFNumber length]: unrecognized selector sent to instance 0x8000000000000000'"
            ]
        )
        #expect(report.crashedThread == 0)
        #expect(report.threads.count == 3)
        #expect(report.threads[0].queue == "com.apple.main-thread")
        #expect(report.threads[2].name == "com.saltwind.tide-sync")
        let top = report.threads[0].frames[5]
        #expect(top.image == "DriftKit")
        #expect(top.address == HexValue(0x1_00cf_7a48))
        #expect(top.imageOffset == 0x7a48)
        #expect(top.symbol == "-[DKTideTable reloadRowsForStation:]")
        #expect(top.symbolOffset == 212)
        #expect(top.isAppFrame == true)
        #expect(report.threads[2].frames[3].symbol == nil)
        // Registers: negative JSON numbers are the 64-bit pattern; values above Int64.max are kept.
        let registers = report.threads[0].registers ?? []
        #expect(registers.first { $0.name == "x0" }?.value == HexValue(0xC000_0000_0000_0000))
        #expect(registers.first { $0.name == "x8" }?.value == HexValue(12_173_744_053_915_896_345))
        #expect(registers.first { $0.name == "pc" }?.value == report.threads[0].frames[0].address)
        #expect(registers.first { $0.name == "esr" }?.value == HexValue(0x5600_0080))
        #expect(report.threads[0].registerFlavor == "ARM_THREAD_STATE64")
        #expect(report.binaryImages.count == 8)
        let app = report.binaryImages[0]
        #expect(app.name == "Driftwood")
        #expect(app.uuid == "8e1b2c440d5a3f619c772a4e6b8d1f03")
        #expect(app.base == HexValue(0x1_00a4_4000))
        #expect(app.end == HexValue(0x1_00a4_4000 + 0x94000 - 1))
        #expect(app.arch == "arm64")
        #expect(app.isApp)
        #expect(report.binaryImages[2].arch == "arm64e")
        #expect(report.binaryImages[2].version == "1971.0.0")
        #expect(!report.binaryImages[2].isApp)
        // User data, the NSException's userInfo and the system facts the model has no field for are kept.
        let unknown = try #require(report.unknownKeys)
        #expect(unknown["user"]?["潮"] == .string("汐"))
        #expect(unknown["user"]?["quote \"key\""] == .string("back\\slash"))
        #expect(unknown["crash"]?["nsexception"]?["userInfo"] == .string("{\n    station = 42;\n}"))
        #expect(unknown["system"]?["memory"]?["size"] == .number("6227214336"))
        #expect(unknown["report"]?["type"] == .string("standard"))
        #expect(report.signature != nil)
    }

    @Test func badAccessWithDiagnosis() throws {
        let report = try Self.read("v3.2.0_ios15.7_arm64e_exc_bad_access_crashdoctor_diagnosis.json").report
        #expect(report.date?.iso8601 == "2023-10-15T09:10:25+00:00")
        #expect(report.exception?.type == "EXC_BAD_ACCESS")
        #expect(report.exception?.signal == "SIGSEGV")
        #expect(report.exception?.codes == "KERN_INVALID_ADDRESS at 0x0000000000000010")
        #expect(report.exception?.kernReturn == "KERN_INVALID_ADDRESS")
        #expect(report.exception?.faultAddress == HexValue(0x10))
        #expect(report.exception?.codeValues == [HexValue(1), HexValue(0x10)])
        #expect(report.codeType == "ARM-64")
        let diagnosis = try #require(report.blocks.first { $0.title == "CrashDoctor Diagnosis" })
        #expect(
            diagnosis.lines == [
                "Attempted to dereference garbage pointer 0x10.",
                "Originated at or in a subcall of -[LFDepthGauge refreshReading:]",
            ]
        )
        #expect(report.threads.count == 4)
        #expect(report.threads[3].name == "KSCrash Exception Handler (Secondary)")
        // Per-thread memory introspection is not modelled: kept under crash.threads with the thread's index.
        let extras = try #require(report.unknownKeys?["crash"]?["threads"])
        guard case .array(let threads) = extras else {
            Issue.record("crash.threads is not an array")
            return
        }
        #expect(threads.first?["index"] == .number("0"))
        #expect(threads.first?["notable_addresses"]?["x1"]?["value"] == .string("readingValue"))
    }

    @Test func cppExceptionOnASecondaryThread() throws {
        let report = try Self.read("v3.3.0_ios17.3_cpp_exception_microsecond_timestamp_debug.json").report
        #expect(report.date?.iso8601 == "2024-03-04T14:50:11.482903+00:00")
        #expect(report.osVersion == "iPadOS 17.3 (21D50)")
        #expect(report.crashedThread == 1)
        #expect(report.threads[1].name == "quarry.tile-loader")
        #expect(
            report.applicationSpecificInformation == [
                "libc++abi: terminating due to uncaught exception of type quarry::CacheCorruption: "
                    + "tile 0x3f2 evicted twice"
            ]
        )
        #expect(report.unknownKeys?["system"]?["app_memory"]?["memory_level"] == .string("normal"))
        #expect(report.unknownKeys?["debug"]?["console_log"] != nil)
    }

    @Test func signalWithAVersionObject() throws {
        let report = try Self.read("v2.0_ios12.4_arm64_sigabrt_abort_signal.json").report
        #expect(report.reportVersion == "2.0")
        #expect(report.exception?.type == "EXC_CRASH")
        #expect(report.exception?.signal == "SIGABRT")
        #expect(report.exception?.meaning != nil)
        #expect(report.applicationSpecificInformation == nil)
        #expect(report.signatureFrames?.first?.contains("WRJournal") == true)
    }

    @Test func recrashIsKeptAndSaid() throws {
        let result = try Self.read("v3.2.0_ios17.1_recrash_crash_in_handler_incomplete.json")
        let report = result.report
        #expect(report.isPartial)
        #expect(
            result.diagnostics.contains { $0.code == .kscrashIncomplete && $0.location?.keyPath == "incomplete" }
        )
        #expect(
            result.diagnostics.contains {
                $0.code == .kscrashRecrash && $0.location?.keyPath == "recrash_report"
            }
        )
        // The main report is the crash that happened; the recrash is summed up and kept verbatim.
        #expect(report.exception?.faultAddress == HexValue(0x20))
        let block = try #require(report.blocks.first { $0.title == "Recrash Report" })
        #expect(block.lines.first == "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)")
        #expect(block.lines.contains("Crashed Thread:  0  KSCrash Exception Handler (Primary)"))
        #expect(block.lines.contains { $0.contains("-[TSAppDelegate crashReporterDidCrash:] + 40") })
        #expect(block.lines.contains("Recrash Diagnosis: Attempted to dereference null pointer."))
        #expect(report.unknownKeys?["recrash_report"]?["report"]?["type"] == .string("minimal"))
        #expect(report.unknownKeys?["incomplete"] == .bool(true))
    }

    @Test func sentryCrashVariant() throws {
        let report = try Self.read("sentrycrash_v3.2.0_ios17.4_exc_breakpoint_swift_fatal_error_scope.json").report
        #expect(report.exception?.type == "EXC_BREAKPOINT")
        // SentryCrash writes the signal number only.
        #expect(report.exception?.signal == "SIGTRAP")
        #expect(report.exception?.codes == "0x0000000000000001, 0x00000001934da9b8")
        // cpu_arch is null: the architecture comes from cpu_type/cpu_subtype.
        #expect(report.codeType == "ARM-64")
        #expect(report.threads[0].registerFlavor == "ARM_THREAD_STATE64")
        #expect(
            report.applicationSpecificInformation == [
                "libswiftCore.dylib: Ferrule/Ledger.swift:88: Fatal error: Unexpectedly found nil while unwrapping "
                    + "an Optional value"
            ]
        )
        #expect(report.unknownKeys?["sentry_sdk_scope"]?["environment"] == .string("production"))
        #expect(report.unknownKeys?["user"]?["context"] != nil)
    }
}
