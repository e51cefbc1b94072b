import APMInspectCore
import Foundation
import Testing

@testable import CrashReportParsing

/// Issue 20: what real reports from the field got wrong, each on the smallest report that shows it.
@Suite struct FieldFidelityTests {
    private func parse(_ text: String) throws -> CrashReport {
        try CrashReportParser().parse(Array(text.utf8)).report
    }

    private static func images(arch: String) -> String {
        """
        Binary Images:
        0x100a48000 - 0x100a5ffff +Lumen \(arch)  <0a1b2c3d4e5f60718293a4b5c6d7e8f9> /private/var/containers/Bundle/Application/1C3A/Lumen.app/Lumen
        """
    }

    private func exception(_ lines: String, arch: String = "arm64") throws -> CrashReport.Exception {
        let report = try parse(
            "Process: Lumen [2211]\n\(lines)\nCrashed Thread:  0\n\nThread 0 Crashed:\n"
                + "0   Lumen  0x0000000100a4c7a4 0x100a48000 + 18340\n\n\(Self.images(arch: arch))\n"
        )
        return try #require(report.exception)
    }

    @Test func generalProtectionFaultIsNotAnUnmappedAddress() throws {
        let value = try exception(
            "Exception Type:        EXC_BAD_ACCESS (SIGSEGV)\nException Codes:       EXC_I386_GPFLT\n"
                + "Exception Codes:       0x000000000000000d, 0x0000000000000000",
            arch: "x86_64"
        )
        #expect(value.meaning?.hasPrefix("general-protection fault") == true)
        #expect(value.meaning?.contains("not mapped") == false)
        // Its second code is 0, not an address that faulted.
        #expect(value.faultAddress == nil)
        // Both lines are kept, symbolic first.
        #expect(value.codes == "EXC_I386_GPFLT\n0x000000000000000d, 0x0000000000000000")
        #expect(value.codeValues == [HexValue(0xd), HexValue(0)])
    }

    @Test func misalignedAccessHasNoPointerAuthenticationNoteOffArm64e() throws {
        let value = try exception("Exception Type:  SIGBUS\nException Codes: BUS_ADRALN at 0x10a3f6e1b")
        #expect(value.type == "SIGBUS")
        #expect(value.signal == "SIGBUS")
        #expect(value.meaning == "misaligned memory access")
        #expect(value.faultAddress == HexValue(0x1_0a3f_6e1b))
        let bare = try exception("Exception Type:  SIGBUS\nException Codes: 0x0000000000000000, 0x0000000000000000")
        #expect(bare.meaning?.contains("pointer authentication") == false)
        let arm64e = try exception(
            "Exception Type:  SIGBUS\nException Codes: 0x0000000000000000, 0x0000000000000000",
            arch: "arm64e"
        )
        #expect(arm64e.meaning?.contains("pointer authentication") == true)
    }

    @Test func protectionFailureIsNamed() throws {
        let value = try exception(
            "Exception Type:  EXC_BAD_ACCESS (SIGBUS)\nException Subtype: KERN_PROTECTION_FAILURE at 0x0000000104c80000"
        )
        #expect(value.meaning?.contains("protected") == true)
        #expect(value.faultAddress == HexValue(0x1_04c8_0000))
    }

    @Test func typeAndSignalAreWrittenOnce() {
        #expect(CrashReport.Exception(type: "SIGBUS", signal: "SIGBUS").typeAndSignal == "SIGBUS")
        #expect(CrashReport.Exception(type: "EXC_CRASH", signal: "SIGABRT").typeAndSignal == "EXC_CRASH (SIGABRT)")
        #expect(CrashReport.Exception(signal: "SIGKILL").typeAndSignal == "(SIGKILL)")
        #expect(CrashReport.Exception(type: "EXC_GUARD").typeAndSignal == "EXC_GUARD")
    }

    // MARK: - bug_type

    /// A 309-shaped JSON body under another bug_type.
    private static func ips(bugType: String, body: String) -> [UInt8] {
        let header =
            "{\"app_name\":\"Lumen\",\"bug_type\":\"\(bugType)\",\"os_version\":\"iPhone OS 17.4 (21E219)\","
            + "\"incident_id\":\"5B0C6A1E-2F47-4D8B-9E13-7A6C2D4F8B90\",\"name\":\"Lumen\"}"
        return Array((header + "\n" + body).utf8)
    }

    private static let crashBody = """
        {
          "procName" : "Lumen",
          "pid" : 2211,
          "exception" : {"type":"EXC_GUARD","signal":"SIGKILL","codes":"0x0000000000000000, 0x0000000000000000"},
          "faultingThread" : 0,
          "threads" : [{"triggered":true,"id":1,"frames":[{"imageOffset":18340,"imageIndex":0}]}],
          "usedImages" : [{"source":"P","arch":"arm64","base":4306796544,"size":98304,"uuid":"0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9","name":"Lumen"}]
        }
        """

    @Test(arguments: ["308", "409", "509", "222", "223", "228", "310"])
    func crashShapedBodiesOfOtherTypesAreRead(code: String) throws {
        let container = IPSContainer(bytes: Self.ips(bugType: code, body: Self.crashBody))
        #expect(CrashReportParser.isCrashReport(container))
        let report = try CrashReportParser().parse(container).report
        #expect(report.process == "Lumen")
        #expect(report.threads.first?.frames.first?.imageOffset == 18340)
        #expect(report.binaryImages.count == 1)
    }

    @Test(arguments: ["308", "228", "509"])
    func otherBodiesOfThoseTypesStayUnread(code: String) {
        // A spindump-style text body and a JSON body without threads are not crash reports.
        let text = IPSContainer(
            bytes: Self.ips(bugType: code, body: "Date/Time:  2024-03-01\nDuration:  2.98s\nSteps:  298\n")
        )
        #expect(!CrashReportParser.isCrashReport(text))
        let json = IPSContainer(bytes: Self.ips(bugType: code, body: "{\"stackshot\":{\"frames\":[]}}"))
        #expect(!CrashReportParser.isCrashReport(json))
        #expect(throws: CrashParseError.self) { try CrashReportParser().parse(json) }
    }

    @Test func everyTypeTheIssueNamesIsClassified() {
        let expected: [String: (String, BugType.Family)] = [
            "109": ("Crash", .crash), "309": ("Crash", .crash), "308": ("OSFault", .fault),
            "298": ("Jetsam", .jetsam), "198": ("LegacyJetsam", .jetsam), "385": ("ExcResource", .excResource),
            "185": ("ExcResource", .excResource), "327": ("ExcResourceThreads", .excResource),
            "227": ("ExcResourceThreads", .excResource), "409": ("SystemWatchdogCrash", .systemWatchdog),
            "509": ("TerminatingStackshot", .stackshot), "210": ("Panic", .panic), "288": ("Stackshot", .stackshot),
            "222": ("LongRunloopHang", .hang), "223": ("ShortRunloopHang", .hang), "310": ("MicroRunloopHang", .hang),
            "228": ("ThirdPartyHang", .hang), "238": ("AppLaunchDiagnostics", .launch),
            "145": ("SymptomsIO", .symptoms), "202": ("SymptomsCPUUsage", .symptoms),
            "206": ("SymptomsCPUUsageFatal", .symptoms), "151": ("ForceReset", .panic),
            "301": ("SystemMemoryReset", .memoryReset), "211": ("CoreAnalytics", .analytics),
        ]
        for (code, (name, family)) in expected {
            let type = BugType.lookup(code)
            #expect(type.name == name, "bug_type \(code)")
            #expect(type.family == family, "bug_type \(code)")
            #expect(BugType.isKnown(code))
        }
        #expect(BugType.lookup("999").family == .other)
        #expect(!BugType.isKnown("999"))
    }
}
