import APMInspectCore
import Foundation
import Testing

@testable import CrashReportParsing

/// A JSON `.ips` of a process translated by Rosetta 2 on Apple silicon.
///
/// Its crashed thread's state is an `x86_THREAD_STATE` with a nested `rosetta` object (`tmp0`, `tmp1`, `tmp2`, written in no particular order), which
/// Apple's text report prints as the last row of the X86 state. And nothing nested that the model does not read is
/// dropped: it is kept in `unknownKeys` under its key path.
@Suite struct RosettaThreadStateTests {
    static let report = """
        {"app_name":"Ledger","timestamp":"2025-03-04 09:12:44.00 +0100","app_version":"2.1","slice_uuid":"5d0b7c1e-2f43-3a51-9e8d-0c6b4a7f1e22","build_version":"41","platform":1,"bundleID":"com.example.ledger","share_with_app_devs":0,"is_first_party":0,"bug_type":"309","os_version":"macOS 14.3 (23D56)","incident_id":"6A1F3C2E-8B7D-4E95-A0C4-3D2B1E0F9A87","name":"Ledger"}
        {
          "uptime" : 5120,
          "procRole" : "Foreground",
          "version" : 2,
          "userID" : 501,
          "modelCode" : "Mac14,2",
          "osVersion" : {"train":"macOS 14.3","build":"23D56","releaseType":"User","isEmbedded":false},
          "captureTime" : "2025-03-04 09:12:43.1180 +0100",
          "incident" : "6A1F3C2E-8B7D-4E95-A0C4-3D2B1E0F9A87",
          "pid" : 7311,
          "translated" : true,
          "cpuType" : "X86-64",
          "procName" : "Ledger",
          "procPath" : "\\/Applications\\/Ledger.app\\/Contents\\/MacOS\\/Ledger",
          "bundleInfo" : {"CFBundleShortVersionString":"2.1","CFBundleVersion":"41","CFBundleIdentifier":"com.example.ledger"},
          "storeInfo" : {"deviceIdentifierForVendor":"0E9B4C7A-1D2F-5A36-B8E4-7C9D0A1B2F3E","thirdParty":true},
          "parentProc" : "launchd",
          "parentPid" : 1,
          "exception" : {"codes":"0x0000000000000001, 0x0000000000000000","rawCodes":[1,0],"type":"EXC_BAD_INSTRUCTION","signal":"SIGILL"},
          "termination" : {"flags":0,"code":4,"namespace":"SIGNAL","indicator":"Illegal instruction: 4","byProc":"exc handler","byPid":7311},
          "faultingThread" : 0,
          "threads" : [{"triggered":true,"id":90211,"threadState":{"flavor":"x86_THREAD_STATE","rax":{"value":1},"rbx":{"value":4298113024},"rcx":{"value":0},"rdx":{"value":7},"rdi":{"value":4298113040},"rsi":{"value":0},"rbp":{"value":12884901552},"rsp":{"value":12884901520},"r8":{"value":0},"r9":{"value":16},"r10":{"value":0},"r11":{"value":514},"r12":{"value":0},"r13":{"value":0},"r14":{"value":4298113024},"r15":{"value":0},"rip":{"value":4295004432,"matchesCrashFrame":1},"rflags":{"value":514},"rosetta":{"tmp2":{"value":4295004420},"tmp1":{"value":99},"tmp0":{"value":4295004432}}},"queue":"com.apple.main-thread","frames":[{"imageOffset":16144,"symbol":"Ledger.reconcile()","symbolLocation":48,"imageIndex":0,"originalAddress":4295004432}]},{"id":90214,"name":"com.apple.rosetta.exceptionserver","frames":[{"imageOffset":18660,"imageIndex":1}]}],
          "usedImages" : [
          {"source":"P","arch":"x86_64","base":4294987776,"CFBundleShortVersionString":"2.1","CFBundleIdentifier":"com.example.ledger","size":65536,"uuid":"5d0b7c1e-2f43-3a51-9e8d-0c6b4a7f1e22","path":"\\/Applications\\/Ledger.app\\/Contents\\/MacOS\\/Ledger","name":"Ledger","CFBundleVersion":"41"},
          {"source":"P","arch":"arm64","base":140703124418560,"size":196608,"uuid":"8e2d0c4b-6a1f-3e7d-9b5c-2a4f6e8d0c1b","path":"\\/usr\\/libexec\\/rosetta\\/runtime","name":"runtime"}
        ],
          "sharedCache" : {"base":140703271911424,"size":15218081792,"uuid":"1f2e3d4c-5b6a-3798-8a9b-0c1d2e3f4a5b"}
        }
        """

    private static func parse(_ text: String) throws -> CrashReport {
        try CrashReportParser().parse(Array(text.utf8)).report
    }

    @Test func readsTheRosettaRegistersInTheOrderWritten() throws {
        let report = try Self.parse(Self.report)
        let thread = report.threads[0]
        #expect(thread.registerFlavor == "x86_THREAD_STATE")
        #expect(thread.registers?.count == 18)
        #expect(thread.registers?.contains { $0.name == "rosetta" } == false)
        #expect(thread.rosettaRegisters?.map(\.name) == ["tmp2", "tmp1", "tmp0"])
        #expect(thread.rosettaRegisters?.map(\.value.value) == [0x1_0000_9104, 0x63, 0x1_0000_9110])
        #expect(report.threads[1].rosettaRegisters == nil)
    }

    @Test func theJSONOutputCarriesThemAsRosettaRegisters() throws {
        let report = try Self.parse(Self.report)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(report.threads[0]), as: UTF8.self)
        #expect(text.contains(#""rosettaRegisters":[{"name":"tmp2","value":"0x100009104"}"#))
    }

    @Test func theTranslationEndsTheX86StateWithTheTemporariesInOrder() throws {
        let text = try CrashTextTranslator().translate(Array(Self.report.utf8))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex(of: "Thread 0 crashed with X86 Thread State (64-bit):"))
        #expect(lines[heading + 5] == "  rip: 0x0000000100009110  rfl: 0x0000000000000202")
        #expect(lines[heading + 6] == " tmp0: 0x0000000100009110 tmp1: 0x0000000000000063 tmp2: 0x0000000100009104")
    }

    @Test func aMissingRipOfATranslatedThreadIsUnavailable() throws {
        let withoutRip = Self.report.replacingOccurrences(
            of: #""rip":{"value":4295004432,"matchesCrashFrame":1},"#,
            with: ""
        )
        let text = try CrashTextTranslator().translate(Array(withoutRip.utf8))
        #expect(text.contains("\n  rip: <unavailable>       rfl: 0x0000000000000202\n tmp0: "))
    }

    @Test func nestedMembersNoFieldReadsAreKeptUnderTheirKeyPaths() throws {
        let report = try Self.parse(Self.report)
        let kept = try #require(report.unknownKeys)
        #expect(kept["osVersion.isEmbedded"] == .bool(false))
        #expect(kept["storeInfo.thirdParty"] == .bool(true))
        #expect(kept["threads[0].threadState.rip.matchesCrashFrame"] == .number("1"))
        #expect(kept["threads[0].frames[0].originalAddress"] == .number("4295004432"))
        // The body's own unknown members stay as they were.
        #expect(kept["uptime"] == .number("5120"))
        #expect(kept["sharedCache"]?["uuid"] == .string("1f2e3d4c-5b6a-3798-8a9b-0c1d2e3f4a5b"))
        // CFBundleVersion of an image is a field now.
        #expect(report.binaryImages[0].bundleVersion == "41")
        #expect(report.binaryImages[1].bundleVersion == nil)
    }

    /// Every kind of nested member the reader does not take: unknown keys of a thread, a frame, an image, the
    /// exception and the termination, a repeated key, an object in a thread state that is no register, a text field
    /// holding an object, a non-string reason, an `asi` value that is neither text nor a list of texts.
    @Test func theAuditedPlacesKeepWhatTheyDoNotRead() throws {
        let text = """
            {"bug_type":"309","name":"Probe"}
            {
              "procName" : "Probe",
              "exception" : {"type":"EXC_BAD_ACCESS","signal":"SIGSEGV","vmFault":{"kind":"read"}},
              "termination" : {"namespace":"SIGNAL","code":11,"reasons":["first",7],"exitStatus":139},
              "asi" : {"libsystem_c.dylib":["abort() called",{"odd":true}],"dyld":42},
              "faultingThread" : 0,
              "threads" : [{"id":1,"id":2,"name":{"label":"worker"},"instructionState":{"instructionStream":{"bytes":[0,1],"offset":1}},
                "threadState":{"flavor":"ARM_THREAD_STATE64","pc":{"value":4096,"matchesCrashFrame":1},"vendor":{"bank":3},"x":[{"value":1,"objc-selector":"count"}]},
                "frames":[{"imageOffset":16,"imageIndex":0,"imageIndex":1,"regionOffset":4}]}],
              "usedImages" : [{"base":4294967296,"size":4096,"name":"Probe","slide":0}]
            }
            """
        let kept = try #require(try Self.parse(text).unknownKeys)
        #expect(kept["exception.vmFault"] == .object([.init(key: "kind", value: .string("read"))]))
        #expect(kept["termination.exitStatus"] == .number("139"))
        #expect(kept["termination.reasons[1]"] == .number("7"))
        #expect(kept["asi.libsystem_c.dylib[1]"] == .object([.init(key: "odd", value: .bool(true))]))
        #expect(kept["asi.dyld"] == .number("42"))
        #expect(kept["threads[0].id"] == .number("2"))
        #expect(kept["threads[0].name"] == .object([.init(key: "label", value: .string("worker"))]))
        #expect(kept["threads[0].instructionState"]?["instructionStream"]?["offset"] == .number("1"))
        #expect(kept["threads[0].threadState.pc.matchesCrashFrame"] == .number("1"))
        #expect(kept["threads[0].threadState.vendor"] == .object([.init(key: "bank", value: .number("3"))]))
        #expect(kept["threads[0].threadState.x[0].objc-selector"] == .string("count"))
        #expect(kept["threads[0].frames[0].imageIndex"] == .number("1"))
        #expect(kept["threads[0].frames[0].regionOffset"] == .number("4"))
        #expect(kept["usedImages[0].slide"] == .number("0"))
    }

    /// A value an issue keeps (a string pid) makes every kept member a value: the nested ones are read from their
    /// bytes then, and are the same.
    @Test func nestedMembersAreTheSameWhenAnIssueMakesThemValues() throws {
        let mistyped = Self.report.replacingOccurrences(of: #""pid" : 7311,"#, with: #""pid" : "7311","#)
        let kept = try #require(try Self.parse(mistyped).unknownKeys)
        #expect(kept["pid"] == .string("7311"))
        #expect(kept["threads[0].threadState.rip.matchesCrashFrame"] == .number("1"))
        #expect(kept["storeInfo.thirdParty"] == .bool(true))
    }
}
