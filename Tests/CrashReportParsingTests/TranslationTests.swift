import APMInspectCore
import Foundation
import Testing

@testable import CrashReportParsing

/// `.ips` → Apple text translation: exact layouts, and the round trip through the project's text parser.
@Suite struct TranslationTests {
    /// An iOS 16 309 report with every iOS header field, ASI, Kernel Triage, an unsymbolicated frame and the
    /// absolute (`A`) placeholder image that Binary Images lists as `0x0 - 0xffffffffffffffff ??? unknown-arch`.
    static let iosReport = #"""
        {"app_name":"Pebble","timestamp":"2023-03-14 09:26:53.00 +0100","app_version":"3.2","slice_uuid":"5e0f1a2b-3c4d-3e5f-8a6b-7c8d9e0f1a2b","build_version":"41","platform":2,"bundleID":"com.example.pebble","share_with_app_devs":1,"is_first_party":0,"bug_type":"309","os_version":"iPhone OS 16.3 (20D47)","incident_id":"0C4E8A12-7B3D-4F19-A6E2-95D1C3B7F804","name":"Pebble"}
        {
          "uptime" : 4100,
          "procLaunch" : "2023-03-14 09:26:40.5120 +0100",
          "procRole" : "Foreground",
          "version" : 2,
          "userID" : 501,
          "modelCode" : "iPhone13,3",
          "coalitionID" : 611,
          "osVersion" : {"isEmbedded":true,"train":"iPhone OS 16.3","releaseType":"User","build":"20D47"},
          "captureTime" : "2023-03-14 09:26:53.0871 +0100",
          "incident" : "0C4E8A12-7B3D-4F19-A6E2-95D1C3B7F804",
          "pid" : 2211,
          "cpuType" : "ARM-64",
          "procName" : "Pebble",
          "procPath" : "\/private\/var\/containers\/Bundle\/Application\/1F2E3D4C-5B6A-4789-9A0B-C1D2E3F4A5B6\/Pebble.app\/Pebble",
          "bundleInfo" : {"CFBundleShortVersionString":"3.2","CFBundleVersion":"41","CFBundleIdentifier":"com.example.pebble","DTAppStoreToolsBuild":"14C18"},
          "storeInfo" : {"applicationVariant":"1:iPhone13,3:15","thirdParty":true},
          "parentProc" : "launchd",
          "parentPid" : 1,
          "coalitionName" : "com.example.pebble",
          "crashReporterKey" : "9d1e7c55a0b3f24e6c8d0a1b2c3d4e5f60718293",
          "basebandVersion" : "2.40.01",
          "isCorpse" : 1,
          "exception" : {"codes":"0x0000000000000001, 0x0000000000000010","rawCodes":[1,16],"type":"EXC_BAD_ACCESS","signal":"SIGSEGV","subtype":"KERN_INVALID_ADDRESS at 0x0000000000000010"},
          "termination" : {"flags":0,"code":11,"namespace":"SIGNAL","indicator":"Segmentation fault: 11","byProc":"exc handler","byPid":2211},
          "asi" : {"libswiftCore.dylib":["Pebble\/Store.swift:88: Fatal error"]},
          "faultingThread" : 1,
          "threads" : [{"id":90001,"queue":"com.apple.main-thread","frames":[{"imageOffset":3204,"symbol":"mach_msg2_trap","symbolLocation":8,"imageIndex":2},{"imageOffset":21848,"imageIndex":0}]},{"triggered":true,"id":90002,"name":"StoreWorker","threadState":{"x":[{"value":0},{"value":16},{"value":4294983680}],"flavor":"ARM_THREAD_STATE64","lr":{"value":4295001000},"cpsr":{"value":2147487744},"fp":{"value":6171094832},"sp":{"value":6171094800},"esr":{"value":2449473542,"description":"(Data Abort) byte read Translation fault"},"pc":{"value":4295000900,"matchesCrashFrame":1},"far":{"value":16}},"frames":[{"imageOffset":38724,"symbol":"Store.load(key:)","symbolLocation":96,"imageIndex":0,"sourceFile":"Store.swift","sourceLine":88},{"imageOffset":38500,"imageIndex":0},{"imageOffset":4100,"symbol":"_pthread_start","symbolLocation":136,"imageIndex":1},{"imageOffset":1000,"imageIndex":3}]}],
          "usedImages" : [
          {"source":"P","arch":"arm64","base":4294967296,"size":65536,"uuid":"5e0f1a2b-3c4d-3e5f-8a6b-7c8d9e0f1a2b","path":"\/private\/var\/containers\/Bundle\/Application\/1F2E3D4C-5B6A-4789-9A0B-C1D2E3F4A5B6\/Pebble.app\/Pebble","name":"Pebble"},
          {"source":"P","arch":"arm64e","base":8053063680,"size":49152,"uuid":"0d1c2b3a-4f5e-3d6c-9b8a-706f5e4d3c2b","path":"\/usr\/lib\/system\/libsystem_pthread.dylib","name":"libsystem_pthread.dylib"},
          {"source":"P","arch":"arm64e","base":7784628224,"size":229376,"uuid":"a1b2c3d4-e5f6-3a7b-8c9d-0e1f2a3b4c5d","path":"\/usr\/lib\/system\/libsystem_kernel.dylib","name":"libsystem_kernel.dylib"},
          {"size":0,"source":"A","base":0,"uuid":"00000000-0000-0000-0000-000000000000"}
        ],
          "vmregioninfo" : "0x10 is not in any region.  Bytes before following region: 4294967280\n      REGION TYPE                 START - END      [ VSIZE] PRT\/MAX SHRMOD  REGION DETAIL\n      UNUSED SPACE AT START\n--->  \n      __TEXT                   100000000-100010000 [   64K] r-x\/r-x SM=COW  \/var\/containers\/Bundle\/Application\/1F2E3D4C-5B6A-4789-9A0B-C1D2E3F4A5B6\/Pebble.app\/Pebble",
          "ktriageinfo" : "VM - (arg = 0x0) pmap_enter retried due to resource shortage\n",
          "legacyInfo" : {"threadTriggered" : {"name":"StoreWorker"}}
        }
        """#

    /// A macOS 12 x86-64 309 report with an instruction stream, extMods and a VM summary with a blank line.
    static let macReport = #"""
        {"app_name":"Quill","timestamp":"2022-11-02 18:04:12.00 -0700","app_version":"","slice_uuid":"6a7b8c9d-0e1f-3a2b-9c4d-5e6f7a8b9c0d","build_version":"","platform":1,"share_with_app_devs":0,"is_first_party":1,"bug_type":"309","os_version":"macOS 12.6 (21G115)","incident_id":"3B9F0E27-61C4-4D8A-B5E3-0A7C9D2F4B16","name":"Quill"}
        {
          "uptime" : 52000,
          "procLaunch" : "2022-11-02 18:04:10.1003 -0700",
          "procRole" : "Unspecified",
          "version" : 2,
          "userID" : 502,
          "modelCode" : "MacBookPro16,1",
          "coalitionID" : 8812,
          "osVersion" : {"train":"macOS 12.6","build":"21G115","releaseType":"User"},
          "captureTime" : "2022-11-02 18:04:11.9021 -0700",
          "incident" : "3B9F0E27-61C4-4D8A-B5E3-0A7C9D2F4B16",
          "pid" : 4410,
          "cpuType" : "X86-64",
          "procName" : "Quill",
          "procPath" : "\/Users\/USER\/*\/Quill",
          "parentProc" : "zsh",
          "parentPid" : 4402,
          "coalitionName" : "com.apple.Terminal",
          "crashReporterKey" : "5C0D1E2F-3A4B-5C6D-7E8F-90A1B2C3D4E5",
          "responsiblePid" : 4399,
          "responsibleProc" : "Terminal",
          "wakeTime" : 3120,
          "sleepWakeUUID" : "7E6D5C4B-3A29-4180-9F7E-6D5C4B3A2918",
          "sip" : "enabled",
          "isCorpse" : 1,
          "exception" : {"codes":"0x0000000000000001, 0x0000000000000000","rawCodes":[1,0],"type":"EXC_BAD_ACCESS","signal":"SIGSEGV","subtype":"KERN_INVALID_ADDRESS at 0x0000000000000000"},
          "termination" : {"flags":0,"code":11,"namespace":"SIGNAL","indicator":"Segmentation fault: 11","byProc":"exc handler","byPid":4410},
          "extMods" : {"caller":{"thread_create":0,"thread_set_state":0,"task_for_pid":0},"system":{"thread_create":0,"thread_set_state":0,"task_for_pid":12},"targeted":{"thread_create":0,"thread_set_state":0,"task_for_pid":1},"warnings":0},
          "faultingThread" : 0,
          "threads" : [{"triggered":true,"id":700001,"instructionState":{"instructionStream":{"bytes":[85,72,137,229,72,139,7,93,195,144,144,144,144,144,144,144,85,72,137,229,65,87,65,86],"offset":4}},"threadState":{"r13":{"value":0},"rax":{"value":0},"rflags":{"value":66118},"cpu":{"value":3},"r14":{"value":1},"rsi":{"value":140702053824512},"r8":{"value":0},"cr2":{"value":0},"rdx":{"value":8},"r10":{"value":0},"r9":{"value":0},"r15":{"value":4411},"rbx":{"value":105553116266496},"trap":{"value":14},"err":{"value":4},"r11":{"value":582},"rip":{"value":4294983684,"matchesCrashFrame":1},"rbp":{"value":140701836130544},"rsp":{"value":140701836130528},"r12":{"value":0},"rcx":{"value":0},"flavor":"x86_THREAD_STATE","rdi":{"value":0}},"queue":"com.apple.main-thread","frames":[{"imageOffset":16388,"symbol":"Document.read()","symbolLocation":4,"imageIndex":0},{"imageOffset":16500,"imageIndex":0},{"imageOffset":25214,"symbol":"start","symbolLocation":462,"imageIndex":1}]},{"id":700002,"name":"com.apple.NSEventThread","frames":[{"imageOffset":6570,"symbol":"mach_msg_trap","symbolLocation":10,"imageIndex":2}]}],
          "usedImages" : [
          {"source":"P","arch":"x86_64","base":4294967296,"CFBundleShortVersionString":"2.0","CFBundleIdentifier":"com.example.quill","size":32768,"uuid":"6a7b8c9d-0e1f-3a2b-9c4d-5e6f7a8b9c0d","path":"\/Users\/USER\/*\/Quill","name":"Quill","CFBundleVersion":"9"},
          {"source":"P","arch":"x86_64","base":4620091392,"size":442368,"uuid":"1f2e3d4c-5b6a-3798-8a0b-c1d2e3f4a5b6","path":"\/usr\/lib\/dyld","name":"dyld"},
          {"source":"P","arch":"x86_64","base":140703128616960,"size":229376,"uuid":"2a3b4c5d-6e7f-3809-9a1b-2c3d4e5f6a7b","path":"\/usr\/lib\/system\/libsystem_kernel.dylib","name":"libsystem_kernel.dylib"}
        ],
          "vmSummary" : "ReadOnly portion of Libraries: Total=12.0M resident=0K(0%) swapped_out_or_unallocated=12.0M(100%)\n\n                                VIRTUAL   REGION \nREGION TYPE                        SIZE    COUNT (non-coalesced) \nTOTAL                             20.0M       12 \n",
          "legacyInfo" : {"threadTriggered" : {"queue" : "com.apple.main-thread"}}
        }
        """#

    /// What Apple's iOS translation writes for ``iosReport``, line by line (the file ends with a newline).
    static let iosExpected = [
        "",
        "Incident Identifier: 0C4E8A12-7B3D-4F19-A6E2-95D1C3B7F804",
        "CrashReporter Key:   9d1e7c55a0b3f24e6c8d0a1b2c3d4e5f60718293",
        "Hardware Model:      iPhone13,3",
        "Process:             Pebble [2211]",
        "Path:                /private/var/containers/Bundle/Application/1F2E3D4C-5B6A-4789-9A0B-C1D2E3F4A5B6/Pebble.app/Pebble",
        "Identifier:          com.example.pebble",
        "Version:             3.2 (41)",
        "AppStoreTools:       14C18",
        "AppVariant:          1:iPhone13,3:15",
        "Code Type:           ARM-64 (Native)",
        "Role:                Foreground",
        "Parent Process:      launchd [1]",
        "Coalition:           com.example.pebble [611]",
        "",
        "Date/Time:           2023-03-14 09:26:53.0871 +0100",
        "Launch Time:         2023-03-14 09:26:40.5120 +0100",
        "OS Version:          iPhone OS 16.3 (20D47)",
        "Release Type:        User",
        "Baseband Version:    2.40.01",
        "Report Version:      104",
        "",
        "Exception Type:  EXC_BAD_ACCESS (SIGSEGV)",
        "Exception Subtype: KERN_INVALID_ADDRESS at 0x0000000000000010",
        "Exception Codes: 0x0000000000000001, 0x0000000000000010",
        "VM Region Info: 0x10 is not in any region.  Bytes before following region: 4294967280",
        "      REGION TYPE                 START - END      [ VSIZE] PRT/MAX SHRMOD  REGION DETAIL",
        "      UNUSED SPACE AT START",
        "--->  ",
        "      __TEXT                   100000000-100010000 [   64K] r-x/r-x SM=COW  /var/containers/Bundle/Application/1F2E3D4C-5B6A-4789-9A0B-C1D2E3F4A5B6/Pebble.app/Pebble",
        "Exception Note:  EXC_CORPSE_NOTIFY",
        "Termination Reason: SIGNAL 11 Segmentation fault: 11",
        "Terminating Process: exc handler [2211]",
        "",
        "Triggered by Thread:  1",
        "",
        "Application Specific Information:",
        "Pebble/Store.swift:88: Fatal error",
        "",
        "",
        "Kernel Triage:",
        "VM - (arg = 0x0) pmap_enter retried due to resource shortage",
        "",
        "",
        "Thread 0 name:   Dispatch queue: com.apple.main-thread",
        "Thread 0:",
        "0   libsystem_kernel.dylib        \t       0x1d0000c84 mach_msg2_trap + 8",
        "1   Pebble                        \t       0x100005558 0x100000000 + 21848",
        "",
        "Thread 1 name:  StoreWorker",
        "Thread 1 Crashed:",
        "0   Pebble                        \t       0x100009744 Store.load(key:) + 96 (Store.swift:88)",
        "1   Pebble                        \t       0x100009664 0x100000000 + 38500",
        "2   libsystem_pthread.dylib       \t       0x1e0001004 _pthread_start + 136",
        "3   ???                           \t             0x3e8 ???",
        "",
        "",
        "Thread 1 crashed with ARM Thread State (64-bit):",
        "    x0: 0x0000000000000000   x1: 0x0000000000000010   x2: 0x0000000100004000",
        "    fp: 0x000000016fd36f30   lr: 0x00000001000083a8",
        "    sp: 0x000000016fd36f10   pc: 0x0000000100008344 cpsr: 0x80001000",
        "   far: 0x0000000000000010  esr: 0x92000006 (Data Abort) byte read Translation fault",
        "",
        "Binary Images:",
        "       0x100000000 -        0x10000ffff Pebble arm64  <5e0f1a2b3c4d3e5f8a6b7c8d9e0f1a2b> /private/var/containers/Bundle/Application/1F2E3D4C-5B6A-4789-9A0B-C1D2E3F4A5B6/Pebble.app/Pebble",
        "       0x1e0000000 -        0x1e000bfff libsystem_pthread.dylib arm64e  <0d1c2b3a4f5e3d6c9b8a706f5e4d3c2b> /usr/lib/system/libsystem_pthread.dylib",
        "       0x1d0000000 -        0x1d0037fff libsystem_kernel.dylib arm64e  <a1b2c3d4e5f63a7b8c9d0e1f2a3b4c5d> /usr/lib/system/libsystem_kernel.dylib",
        "               0x0 - 0xffffffffffffffff ??? unknown-arch  <00000000000000000000000000000000> ???",
        "",
        "EOF",
        "",
    ]

    /// What Apple's macOS translation writes for ``macReport``: a leading blank line, Report Version 12.
    static let macExpected = [
        "",
        "Process:               Quill [4410]",
        "Path:                  /Users/USER/*/Quill",
        "Identifier:            Quill",
        "Version:               ???",
        "Code Type:             X86-64 (Native)",
        "Parent Process:        zsh [4402]",
        "Responsible:           Terminal [4399]",
        "User ID:               502",
        "",
        "Date/Time:             2022-11-02 18:04:11.9021 -0700",
        "OS Version:            macOS 12.6 (21G115)",
        "Report Version:        12",
        "Anonymous UUID:        5C0D1E2F-3A4B-5C6D-7E8F-90A1B2C3D4E5",
        "",
        "Sleep/Wake UUID:       7E6D5C4B-3A29-4180-9F7E-6D5C4B3A2918",
        "",
        "Time Awake Since Boot: 52000 seconds",
        "Time Since Wake:       3120 seconds",
        "",
        "System Integrity Protection: enabled",
        "",
        "Crashed Thread:        0  Dispatch queue: com.apple.main-thread",
        "",
        "Exception Type:        EXC_BAD_ACCESS (SIGSEGV)",
        "Exception Codes:       KERN_INVALID_ADDRESS at 0x0000000000000000",
        "Exception Codes:       0x0000000000000001, 0x0000000000000000",
        "Exception Note:        EXC_CORPSE_NOTIFY",
        "",
        "Termination Reason:    Namespace SIGNAL, Code 11 Segmentation fault: 11",
        "Terminating Process:   exc handler [4410]",
        "",
        "Thread 0 Crashed::  Dispatch queue: com.apple.main-thread",
        "0   Quill                         \t       0x100004004 Document.read() + 4",
        "1   Quill                         \t       0x100004074 0x100000000 + 16500",
        "2   dyld                          \t       0x11361627e start + 462",
        "",
        "Thread 1:: com.apple.NSEventThread",
        "0   libsystem_kernel.dylib        \t    0x7ff8000019aa mach_msg_trap + 10",
        "",
        "",
        "Thread 0 crashed with X86 Thread State (64-bit):",
        "  rax: 0x0000000000000000  rbx: 0x0000600000000000  rcx: 0x0000000000000000  rdx: 0x0000000000000008",
        "  rdi: 0x0000000000000000  rsi: 0x00007ff7bfeff800  rbp: 0x00007ff7b2f638f0  rsp: 0x00007ff7b2f638e0",
        "   r8: 0x0000000000000000   r9: 0x0000000000000000  r10: 0x0000000000000000  r11: 0x0000000000000246",
        "  r12: 0x0000000000000000  r13: 0x0000000000000000  r14: 0x0000000000000001  r15: 0x000000000000113b",
        "  rip: 0x0000000100004004  rfl: 0x0000000000010246  cr2: 0x0000000000000000",
        "  ",
        "Logical CPU:     3",
        "Error Code:      0x00000004 ",
        "Trap Number:     14",
        "",
        "Thread 0 instruction stream:",
        "  55 48 89 e5[48]8b 07 5d-c3 90 90 90 90 90 90 90  UH..H..]........\t<==",
        "  55 48 89 e5 41 57 41 56                          UH..AWAV",
        "",
        "Binary Images:",
        "       0x100000000 -        0x100007fff com.example.quill (2.0) <6a7b8c9d-0e1f-3a2b-9c4d-5e6f7a8b9c0d> /Users/USER/*/Quill",
        "       0x113610000 -        0x11367bfff dyld (*) <1f2e3d4c-5b6a-3798-8a0b-c1d2e3f4a5b6> /usr/lib/dyld",
        "    0x7ff800000000 -     0x7ff800037fff libsystem_kernel.dylib (*) <2a3b4c5d-6e7f-3809-9a1b-2c3d4e5f6a7b> /usr/lib/system/libsystem_kernel.dylib",
        "",
        "External Modification Summary:",
        "  Calls made by other processes targeting this process:",
        "    task_for_pid: 1",
        "    thread_create: 0",
        "    thread_set_state: 0",
        "  Calls made by this process:",
        "    task_for_pid: 0",
        "    thread_create: 0",
        "    thread_set_state: 0",
        "  Calls made by all processes on this machine:",
        "    task_for_pid: 12",
        "    thread_create: 0",
        "    thread_set_state: 0",
        "",
        "VM Region Summary:",
        "ReadOnly portion of Libraries: Total=12.0M resident=0K(0%) swapped_out_or_unallocated=12.0M(100%)",
        "",
        "                                VIRTUAL   REGION ",
        "REGION TYPE                        SIZE    COUNT (non-coalesced) ",
        "TOTAL                             20.0M       12 ",
        "",
        "",
        "",
    ]

    /// Issue 20: the trap's description follows the Error Code, and the placeholder image is listed as Apple
    /// lists it (macOS layout).
    @Test func errorCodeDescriptionAndPlaceholderImage() throws {
        var text = Self.macReport.replacingOccurrences(
            of: #""trap":{"value":14}"#,
            with: #""trap":{"value":14,"description":"(no mapping for user data write)"}"#
        )
        text = text.replacingOccurrences(
            of: #""name":"libsystem_kernel.dylib"}"#,
            with: #""name":"libsystem_kernel.dylib"},"#
                + #"{"size":0,"source":"A","base":0,"uuid":"00000000-0000-0000-0000-000000000000"}"#
        )
        #expect(text.contains(#""source":"A""#))
        let lines = try Self.translate(text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("Error Code:      0x00000004 (no mapping for user data write)"))
        #expect(
            lines.contains(
                "               0x0 - 0xffffffffffffffff ??? (*) <00000000-0000-0000-0000-000000000000> ???"
            )
        )
        // Without a description the line ends in the space Apple leaves there.
        #expect(try Self.translate(Self.macReport).contains("Error Code:      0x00000004 \n"))
    }

    private static func translate(_ text: String) throws -> String {
        try CrashTextTranslator().translate(Array(text.utf8))
    }

    private static func expectedText(_ lines: [String]) -> String {
        lines.joined(separator: "\n") + "\n"
    }

    @Test func iOSLayoutMatchesLineByLine() throws {
        let text = try Self.translate(Self.iosReport)
        let produced = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(produced.count == Self.iosExpected.count)
        for (index, pair) in zip(produced, Self.iosExpected).enumerated() {
            #expect(pair.0 == pair.1, "line \(index + 1)")
        }
        #expect(text == Self.expectedText(Self.iosExpected))
    }

    @Test func macOSLayoutMatchesLineByLine() throws {
        let text = try Self.translate(Self.macReport)
        let produced = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(produced.count == Self.macExpected.count)
        for (index, pair) in zip(produced, Self.macExpected).enumerated() {
            #expect(pair.0 == pair.1, "line \(index + 1)")
        }
        #expect(text == Self.expectedText(Self.macExpected))
    }

    @Test func chooseLayoutFromPlatform() throws {
        let ios = try CrashReportParser().parse(Array(Self.iosReport.utf8)).report
        let mac = try CrashReportParser().parse(Array(Self.macReport.utf8)).report
        #expect(AppleTextLayout.forReport(ios) == .iOS)
        #expect(AppleTextLayout.forReport(mac) == .macOS)
        // A simulator report (header platform 7) ran on macOS: Apple writes the macOS layout.
        let simulator = CrashReport(sourceFormat: .ips309, osVersion: "macOS 12.3.1 (21E258)")
        #expect(AppleTextLayout.forReport(simulator) == .macOS)
        #expect(AppleTextLayout.forReport(simulator, isEmbedded: true) == .iOS)
        let watch = CrashReport(sourceFormat: .ips309, osVersion: "Watch OS 9.1 (20S75)")
        #expect(AppleTextLayout.forReport(watch) == .iOS)
        let forced = try CrashTextTranslator(layout: .macOS).translate(Array(Self.iosReport.utf8))
        #expect(forced.contains("\nReport Version:        12\n"))
        #expect(forced.contains("\nThread 1 Crashed:: StoreWorker\n"))
    }

    @Test func modelOnlyTranslationKeepsTheLayout() throws {
        let report = try CrashReportParser().parse(Array(Self.iosReport.utf8)).report
        let text = report.appleText()
        // Without the JSON extras the ASI lines keep the model's `image: ` prefix and AppStoreTools is unknown.
        #expect(text.contains("\nlibswiftCore.dylib: Pebble/Store.swift:88: Fatal error\n"))
        #expect(!text.contains("AppStoreTools:"))
        #expect(text.contains("\n1   Pebble                        \t       0x100009664 0x100000000 + 38500\n"))
        #expect(text.hasSuffix("\nEOF\n\n"))
    }

    @Test func refusesTextReports() {
        let text = "Incident Identifier: 1\nException Type:  EXC_CRASH (SIGABRT)\n"
        #expect(throws: CrashParseError.self) { try CrashTextTranslator().translate(Array(text.utf8)) }
        let panic = #"{"bug_type":"210","os_version":"iPhone OS 16.2 (20C65)"}\n{"panicString":"x"}"#
        #expect(throws: CrashParseError.self) { try CrashTextTranslator().translate(Array(panic.utf8)) }
    }

    @Test func truncatedReportIsTranslatedWithAWarning() throws {
        let whole = Array(Self.iosReport.utf8)
        let cut = Array(whole.prefix(whole.count * 2 / 3))
        let translation = try CrashTextTranslator().translation(of: cut)
        #expect(translation.text.contains("Exception Type:"))
        #expect(translation.diagnostics.contains { $0.severity == .warning && $0.code == .jsonTruncated })
        let clean = try CrashTextTranslator().translation(of: whole)
        #expect(!clean.diagnostics.contains { $0.severity != .note })
        #expect(clean.text == (try CrashTextTranslator().translate(whole)))
    }

    @Test(arguments: [iosReport, macReport])
    func roundTripThroughTheTextParser(_ ips: String) throws {
        let json = try CrashReportParser().parse(Array(ips.utf8)).report
        let text = try CrashTextTranslator().translate(Array(ips.utf8))
        let back = try CrashReportParser().parse(Array(text.utf8)).report
        try Self.expectSameModel(json, back)
    }

    /// Every bug_type 309 `.ips` the team wrote in Corpus/ (crash and watchdog) survives the round trip.
    @Test func roundTripOverTheRepositoryCorpus() throws {
        let here = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        let corpus = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus")
        var translated = 0
        for family in ["crash", "watchdog"] {
            let folder = corpus.appendingPathComponent(family)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".ips") {
                let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
                let container = IPSContainer(bytes: bytes)
                guard container.bugType?.code == "309", container.bodyKind == .json else { continue }
                let json = try CrashReportParser().parse(container).report
                let text = try CrashTextTranslator().translate(bytes)
                let back = try CrashReportParser().parse(Array(text.utf8)).report
                try Self.expectSameModel(json, back)
                translated += 1
            }
        }
        #expect(translated >= 1, "no bug_type 309 .ips found under \(corpus.path)")
    }

    /// The fields both shapes carry must agree.
    static func expectSameModel(_ json: CrashReport, _ text: CrashReport) throws {
        #expect(text.process == json.process)
        #expect(text.pid == json.pid)
        #expect(text.path == json.path)
        #expect(text.exception?.type == json.exception?.type)
        #expect(text.exception?.signal == json.exception?.signal)
        // macOS writes the subtype as another `Exception Codes:` line, which the text parser keeps with the codes.
        let codes = (text.exception?.codes ?? "").split(separator: "\n").map(String.init)
        #expect(json.exception?.codes.map { codes.contains($0) } ?? codes.isEmpty)
        #expect(text.termination?.namespace == json.termination?.namespace)
        #expect(text.termination?.code == json.termination?.code)
        #expect(text.termination?.indicator == json.termination?.indicator)
        #expect(text.termination?.byPid == json.termination?.byPid)
        #expect(text.crashedThread == json.crashedThread)
        try #require(text.threads.count == json.threads.count)
        for (back, original) in zip(text.threads, json.threads) {
            #expect(back.index == original.index)
            #expect(back.crashed == original.crashed)
            #expect(back.name == original.name)
            #expect(back.queue == original.queue)
            try #require(back.frames.count == original.frames.count, "thread \(original.index)")
            for (frame, source) in zip(back.frames, original.frames) {
                #expect(frame.image == (source.image ?? "???"), "thread \(original.index) frame \(source.index)")
                #expect(frame.address == source.address, "thread \(original.index) frame \(source.index)")
                #expect(frame.symbol == source.symbol, "thread \(original.index) frame \(source.index)")
                #expect(frame.symbolOffset == source.symbolOffset, "thread \(original.index) frame \(source.index)")
                if source.symbol == nil, source.address != nil, frame.image != "???" {
                    #expect(frame.imageOffset == source.imageOffset, "thread \(original.index) frame \(source.index)")
                }
            }
        }
        // Apple lists the absolute placeholder (base 0, size 0) as `0x0 - 0xffffffffffffffff ???`, and no other `A`.
        let listed = json.binaryImages.filter { $0.source != "A" || AppleTextWriter.isPlaceholder($0) }
        try #require(text.binaryImages.count == listed.count)
        for (back, original) in zip(text.binaryImages, listed) {
            #expect(back.base == original.base)
            if AppleTextWriter.isPlaceholder(original) {
                #expect(back.end?.value == UInt64.max)
                continue
            }
            #expect(back.end == original.end)
            #expect(back.uuid == original.uuid)
            #expect([back.name, back.bundleId].contains(original.bundleId ?? original.name))
        }
    }

    /// A FRONTBOARD watchdog kill with reasons and a Last Exception Backtrace, as a minimal iOS 309 report.
    static let watchdogReport = #"""
        {"bug_type":"309","platform":2,"os_version":"iPhone OS 16.1 (20B82)","name":"Tally"}
        {
          "procName" : "Tally", "pid" : 377, "cpuType" : "ARM-64",
          "osVersion" : {"isEmbedded":true,"train":"iPhone OS 16.1","build":"20B82"},
          "exception" : {"codes":"0x0000000000000000, 0x0000000000000000","rawCodes":[0,0],"type":"EXC_CRASH","signal":"SIGKILL"},
          "termination" : {"code":2343432205,"namespace":"FRONTBOARD","byProc":"runningboardd","byPid":33,
            "reasons":["<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression","ProcessVisibility: Foreground",">"]},
          "faultingThread" : 0,
          "lastExceptionBacktrace" : [{"imageOffset":4660,"symbol":"__exceptionPreprocess","symbolLocation":164,"imageIndex":1},{"imageOffset":512,"imageIndex":0}],
          "threads" : [{"triggered":true,"id":5,"frames":[{"imageOffset":512,"imageIndex":0}]},{"id":6,"name":"com.example.tally.sync-worker-with-a-long-name","frames":[]}],
          "usedImages" : [
            {"source":"P","arch":"arm64","base":4295000064,"size":16384,"uuid":"11111111-2222-3333-4444-555555555555","path":"\/private\/var\/containers\/Bundle\/Application\/X\/Tally.app\/Tally","name":"Tally"},
            {"source":"P","arch":"arm64e","base":6442450944,"size":4096000,"uuid":"66666666-7777-8888-9999-aaaaaaaaaaaa","path":"\/System\/Library\/Frameworks\/CoreFoundation.framework\/CoreFoundation","name":"CoreFoundation"}
          ]
        }
        """#

    @Test func iOSTerminationReasonsAndLastExceptionBacktrace() throws {
        let text = try Self.translate(Self.watchdogReport)
        let expected = [
            "Exception Type:  EXC_CRASH (SIGKILL)",
            "Exception Codes: 0x0000000000000000, 0x0000000000000000",
            "Termination Reason: FRONTBOARD 2343432205",
            "<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression",
            "ProcessVisibility: Foreground",
            ">",
            "Terminating Process: runningboardd [33]",
            "",
            "Triggered by Thread:  0",
            "",
            "Last Exception Backtrace:",
            "0   CoreFoundation                \t       0x180001234 __exceptionPreprocess + 164",
            "1   Tally                         \t       0x100008200 0x100008000 + 512",
            "",
            "Thread 0 Crashed:",
            "0   Tally                         \t       0x100008200 0x100008000 + 512",
            "",
            "Thread 1 name:  com.example.tally.sync-worker-with-a-long-name",
            "Thread 1:",
            "",
            "",
            "Binary Images:",
        ].joined(separator: "\n")
        #expect(text.contains("\n" + expected + "\n"))
        #expect(text.contains("\nReport Version:      104\n"))
        #expect(!text.contains("crashed with"), "no thread state in the JSON, so none in the text")
        let back = try CrashReportParser().parse(Array(text.utf8)).report
        #expect(back.termination?.code == HexValue(0x8bad_f00d))
        #expect(back.termination?.namespace == "FRONTBOARD")
        #expect(back.lastExceptionBacktrace?.map(\.address) == [HexValue(0x1_8000_1234), HexValue(0x1_0000_8200)])
    }

    @Test func macOSNamespaceCodeAndLastExceptionBacktrace() throws {
        let text = try CrashTextTranslator(layout: .macOS).translate(Array(Self.watchdogReport.utf8))
        #expect(text.contains("\nTermination Reason:    Namespace FRONTBOARD, Code 2343432205\n<RBSTerminateContext|"))
        #expect(text.contains("\nTerminating Process:   runningboardd [33]\n"))
        #expect(text.contains("\nLast Exception Backtrace:\n0   CoreFoundation "))
        #expect(text.contains("\nThread 1:: com.example.tally.sync-worker-with-a-long-name\n"))
        #expect(text.contains("0x100008000 -        0x10000bfff Tally (*) <11111111-2222-3333-4444-555555555555> "))
        #expect(!text.contains("EOF"))
    }

    @Test func instructionStreamMarksThePCAtALineEndAndPadsAShortLine() {
        var extras = AppleTextExtras()
        extras.instructionStreams[0] = .init(bytes: Array(0x41...0x54), offset: 15)
        var writer = AppleTextWriter(report: CrashReport(sourceFormat: .ips309), extras: extras)
        writer.writeInstructionStream(threadIndex: 3, position: 0)
        let expected = [
            "Thread 3 instruction stream:",
            "  41 42 43 44 45 46 47 48-49 4a 4b 4c 4d 4e 4f[50] ABCDEFGHIJKLMNOP\t<==",
            "  51 52 53 54                                      QRST",
            "",
            "",
        ].joined(separator: "\n")
        #expect(writer.output == expected)
    }
}
