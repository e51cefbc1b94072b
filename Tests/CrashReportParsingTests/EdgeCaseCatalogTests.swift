import APMInspectCore
import Testing

@testable import CrashReportParsing

/// The 22 edge cases of the crash-report research (reference/crash-watchdog.md §7), one test each.
///
/// Numbered as there; case 20 (watchdog text) is in WatchdogAnalysisTests. Inputs are small but shaped like real
/// reports.
@Suite struct EdgeCaseCatalogTests {
    private func parse(_ text: String) throws -> CrashParseResult {
        try CrashReportParser().parse(Array(text.utf8))
    }

    private static let body309 = #"""
        {"procName":"Quill","pid":3344,"faultingThread":0,"exception":{"type":"EXC_CRASH","signal":"SIGABRT"},
        "threads":[{"id":812744,"triggered":true,"frames":[{"imageOffset":4705932,"imageIndex":0}]}],
        "usedImages":[{"base":4308647936,"size":3833856,"name":"Quill","uuid":"BA653F7D-D052-38F8-BABE-C9CB4861DD33"}]}
        """#

    private static let header309 =
        #"{"app_name":"Quill","timestamp":"2024-01-18 14:02:51.00 -0500","bug_type":"309","os_version":"iPhone OS 17.2.1 (21C66)","name":"Quill"}"#

    @Test func case01ContainerShapesAreSniffed() throws {
        let json = try parse(Self.header309 + "\n" + Self.body309)
        #expect(json.report.sourceFormat == .ips309)
        let textBody = try parse(
            #"{"bug_type":"109","name":"Quill"}"# + "\nProcess: Quill [1]\nException Type: EXC_CRASH (SIGABRT)\n"
        )
        #expect(textBody.report.sourceFormat == .ipsText)
        let leadingBlank = try parse("\nProcess: Quill [1]\nException Type: EXC_CRASH (SIGABRT)\n")
        #expect(leadingBlank.report.process == "Quill")
        let console = try parse(
            "-------------------------------------\nTranslated Report (Full Report Below)\n"
                + "-------------------------------------\n\nProcess: Quill [3344]\n\n"
                + "-----------\nFull Report\n-----------\n\n" + Self.header309 + "\n" + Self.body309
        )
        #expect(console.report.sourceFormat == .translatedText)
        #expect(console.report.threads.first?.id == 812_744)
        let profile = try parse(Self.header309 + "\n" + Self.body309 + "\n\nSystem Profile:\nModel: MacBookPro18,3\n")
        #expect(profile.report.pid == 3344)
        #expect(profile.diagnostics.contains { $0.code == .crashTextBesideBody })
    }

    @Test func case02HeaderStringsWithBracesAndQuotesEndAtTheNewline() throws {
        let header = #"{"app_name":"Q {\"x\"} }","bug_type":"309","name":"Q {\"x\"} }","incident_id":"1"}"#
        let result = try parse(header + "\n" + Self.body309)
        #expect(result.report.header?.name == #"Q {"x"} }"#)
        #expect(result.report.process == "Quill")
    }

    @Test(arguments: ["151", "188", "288", "298", "385", "409"])
    func case03NonCrashBugTypesAreClassifiedNotForced(bugType: String) {
        let file = #"{"bug_type":"\#(bugType)","name":"x"}"# + "\n{\"product\":\"iPhone14,5\"}"
        let container = IPSContainer(bytes: Array(file.utf8))
        #expect(container.bugType?.code == bugType)
        if bugType == "385" {
            // EXC_RESOURCE reports are crash-shaped and read as such.
            #expect(CrashReportParser.isCrashReport(container))
        } else {
            #expect(!CrashReportParser.isCrashReport(container))
            #expect(throws: CrashParseError.self) { try CrashReportParser().parse(container) }
        }
    }

    @Test func case04RepeatedKeysAndTwoSpellings() throws {
        let text = try parse(
            "Process: Quill [1]\nException Type: EXC_BAD_ACCESS (SIGSEGV)\n"
                + "Exception Codes: KERN_INVALID_ADDRESS at 0x0000000000000010\n"
                + "Exception Codes: 0x0000000000000001, 0x0000000000000010\n"
        )
        #expect(text.report.exception?.codes?.split(separator: "\n").count == 2)
        #expect(text.report.exception?.faultAddress == HexValue(0x10))
        for spelling in ["isCorpse", "is_corpse"] {
            let body = Self.body309.replacingFirst(#""pid":3344,"#, with: #""pid":3344,"\#(spelling)":1,"#)
            let json = try parse(Self.header309 + "\n" + body)
            #expect(json.report.exception?.isCorpse == true, "\(spelling)")
        }
    }

    @Test func case05ValuesContinueOnUnprefixedLines() throws {
        let result = try parse(
            """
            Process: Quill [1]
            Termination Reason: FRONTBOARD 2343432205
            <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression
            ProcessVisibility: Foreground
            >
            Dyld Error Message:
              Library not loaded: @rpath/Missing.framework/Missing
              Referenced from: /private/var/containers/Bundle/Application/4E2F/Quill.app/Quill
              Reason: image not found
            Application Specific Information:
            abort() called
            *** Terminating app due to uncaught exception 'NSRangeException'

            Triggered by Thread: 0
            """
        )
        #expect(result.report.termination?.reasons.count == 3)
        let dyld = try #require(result.report.blocks.first { $0.title == "Dyld Error Message" })
        #expect(dyld.lines.count == 3)
        #expect(dyld.lines[1].contains("Referenced from:"))
        #expect(result.report.applicationSpecificInformation?.count == 2)
        #expect(result.report.crashedThread == 0)
    }

    @Test(arguments: [
        ("2022-06-01 12:00:00 +0200", "2022-06-01T12:00:00+02:00"),
        ("2022-06-01 12:00:00.12 +0200", "2022-06-01T12:00:00.12+02:00"),
        ("2022-06-01 12:00:00.123 -0700", "2022-06-01T12:00:00.123-07:00"),
        ("2022-06-01 12:00:00.1234 +0000", "2022-06-01T12:00:00.1234+00:00"),
        ("2022-06-01T12:00:00Z", "2022-06-01T12:00:00+00:00"),
    ])
    func case06TimestampsOfEveryPrecision(written: String, iso: String) throws {
        let result = try parse("Process: Quill [1]\nDate/Time: \(written)\nException Type: EXC_CRASH (SIGABRT)\n")
        #expect(result.report.date?.iso8601 == iso)
    }

    @Test func case06ABadDateIsKeptNotFatal() throws {
        let result = try parse(
            "Process: Quill [1]\nDate/Time: yesterday at noon\nException Type: EXC_CRASH (SIGABRT)\n"
        )
        #expect(result.report.date == nil)
        #expect(result.report.exception?.type == "EXC_CRASH")
        #expect(result.diagnostics.contains { $0.code == .crashUnknownDateFormat })
    }

    @Test func case07VersionOrderPlaceholdersAndIdentifier() throws {
        let ios14 = try parse("Process: Quill [1]\nVersion: 57 (2.3.1)\nOS Version: iPhone OS 14.4 (18D52)\n")
        #expect(ios14.report.appVersion == "2.3.1")
        #expect(ios14.report.appBuild == "57")
        let ios15 = try parse("Process: Quill [1]\nVersion: 2.3.1 (57)\nOS Version: iPhone OS 15.5 (19F77)\n")
        #expect(ios15.report.appVersion == "2.3.1")
        #expect(ios15.report.appBuild == "57")
        let tool = try parse("Process: sleep [10277]\nIdentifier: sleep\nVersion: ??? (???)\n")
        #expect(tool.report.bundleId == "sleep")
        #expect(tool.report.appVersion == "???")
    }

    @Test(arguments: [
        ("ARM-64 (Native)", "ARM-64", Bool?.some(false)),
        ("X86-64 (Translated)", "X86-64", true),
        ("X86_64", "X86_64", nil),
        ("ARM-64", "ARM-64", nil),
    ])
    func case08CodeTypeSuffixes(written: String, type: String, translated: Bool?) throws {
        let result = try parse("Process: Quill [1]\nCode Type: \(written)\n")
        #expect(result.report.codeType == type)
        #expect(result.report.isTranslated == translated)
    }

    @Test func case09TerminationGrammarsAreNormalised() throws {
        let modern = try parse("Process: Q [1]\nTermination Reason: Namespace SIGNAL, Code 0xb Segmentation fault\n")
        #expect(modern.report.termination?.namespace == "SIGNAL")
        #expect(modern.report.termination?.code == HexValue(11))
        let decimal = try parse("Process: Q [1]\nTermination Reason: FRONTBOARD 2343432205\n")
        #expect(decimal.report.termination?.code == HexValue(0x8bad_f00d))
        let json = try parse(
            Self.header309 + "\n"
                + Self.body309.replacingFirst(
                    #""faultingThread":0,"#,
                    with:
                        #""termination":{"namespace":"SPRINGBOARD","code":2343432205,"reasons":["a","b"]},"faultingThread":0,"#
                )
        )
        #expect(json.report.termination?.namespace == "SPRINGBOARD")
        #expect(json.report.termination?.code == HexValue(0x8bad_f00d))
        #expect(json.report.termination?.reasons == ["a", "b"])
    }

    @Test func case10ThreadHeaderZoo() throws {
        let result = try parse(
            """
            Process: Quill [1]
            Exception Type: EXC_RESOURCE
            Thread 0 name:   Dispatch queue: com.apple.main-thread
            Thread 0:
            0   Quill 0x0000000102a4c8b0 main + 12

            Thread 3 name:  my::worker::thread
            Thread 3 Attributed:
            0   Quill 0x0000000102a4c8c0 work + 4

            Thread 4 name:
            Thread 4:
            0   Quill 0x0000000102a4c8d0 idle + 4
            """
        )
        #expect(result.report.crashedThread == 3)
        let worker = try #require(result.report.threads.first { $0.index == 3 })
        #expect(worker.attributed)
        #expect(worker.name == "my::worker::thread")
        #expect(result.report.threads.first { $0.index == 0 }?.queue == "com.apple.main-thread")
        #expect(result.report.threads.first { $0.index == 4 }?.name == nil)
    }

    @Test func case11FaultingThreadIsAnIndexNotAKernelID() throws {
        let body = #"""
            {"procName":"Quill","faultingThread":2,"threads":[{"id":100,"frames":[]},{"id":101,"frames":[]},
            {"id":102,"triggered":true,"frames":[]}]}
            """#
        let result = try parse(Self.header309 + "\n" + body)
        #expect(result.report.crashedThread == 2)
        #expect(result.report.threads[2].id == 102)
        #expect(result.report.threads[2].crashed)
    }

    @Test func case12FrameLineZoo() throws {
        let result = try parse(
            """
            Process: Quill [3344]
            Thread 0 Crashed:
            0   ...ystem_kernel.dylib         \t0x00000001e3d0e400 __pthread_kill + 8
            1   Quill                           0x102a4c000 + 0xe0c
            2   ???                           \t000000000000000000 0 + 0
            3   libsystem_kernel.dylib        \t0x00000001e3d0e42c __pthread_kill + 8 // comment
            4   Quill                         \t0x0000000102a50010 std::__1::map<int, (anonymous)::X>::find(int const&) + 16
            5   Quill                         \t0x0000000102a50020 $s5Quill6EditorC6renderyyF.cold.1 + 4
            6   Quill                         \t0x0000000102a50030 specialized Editor.render() (in Quill) (Editor.swift:88:12)
            7   My Helper Framework           \t0x0000000102a50040 <redacted> + 0

            Binary Images:
            0x102a4c000 - 0x102a5ffff Quill arm64  <0a1b2c3d4e5f60718293a4b5c6d7e8f9> /private/var/Quill.app/Quill
            0x1e3d0a000 - 0x1e3d41fff libsystem_kernel.dylib arm64e  <1e2d3c4b5a6978879695a4b3c2d1e0f0> /usr/lib/system/libsystem_kernel.dylib
            """
        )
        let frames = try #require(result.report.threads.first?.frames)
        #expect(frames.count == 8)
        #expect(frames[0].image == "libsystem_kernel.dylib")
        #expect(frames[1].imageOffset == 0xe0c)
        #expect(frames[1].address == HexValue(0x102a4_ce0c))
        #expect(frames[2].address == HexValue(0))
        #expect(frames[2].symbol == nil)
        #expect(frames[3].symbol == "__pthread_kill")
        #expect(frames[3].symbolOffset == 8)
        #expect(frames[4].symbol == "std::__1::map<int, (anonymous)::X>::find(int const&)")
        #expect(frames[5].symbol == "$s5Quill6EditorC6renderyyF.cold.1")
        #expect(frames[6].file == "Editor.swift")
        #expect(frames[6].line == 88)
        #expect(frames[6].column == 12)
        #expect(frames[6].symbolOffset == nil)
        #expect(frames[7].image == "My Helper Framework")
        #expect(frames[7].symbol == "<redacted>")
        #expect(frames.allSatisfy { $0.raw != nil })
    }

    @Test func case13InlinedJSONFramesKeepTheirOrder() throws {
        let body = #"""
            {"procName":"Quill","faultingThread":0,"threads":[{"triggered":true,"frames":[
            {"imageOffset":100,"symbol":"inner","inline":true,"imageIndex":0},
            {"imageOffset":100,"symbol":"outer","imageIndex":0}]}],
            "usedImages":[{"base":4096,"size":8192,"name":"Quill"}]}
            """#
        let frames = try #require(try parse(Self.header309 + "\n" + body).report.threads.first?.frames)
        #expect(frames.map(\.symbol) == ["inner", "outer"])
        #expect(frames[0].inlined == true)
        #expect(frames[0].address == frames[1].address)
    }

    @Test func case14RegistersAboveInt64MaxAndWithDescriptions() throws {
        let body = #"""
            {"procName":"Quill","faultingThread":0,"threads":[{"triggered":true,"frames":[],"threadState":{
            "x":[{"value":18446744073709551615},{"value":1}],"pc":{"value":4295000064,"symbol":"main"},
            "esr":{"value":2449473542,"description":"(Data Abort) byte read Translation fault"},
            "flavor":"ARM_THREAD_STATE64"}}]}
            """#
        let thread = try #require(try parse(Self.header309 + "\n" + body).report.threads.first)
        let registers = try #require(thread.registers)
        #expect(registers.first { $0.name == "x0" }?.value == HexValue(UInt64.max))
        #expect(registers.first { $0.name == "esr" }?.description == "(Data Abort) byte read Translation fault")
        #expect(thread.registerFlavor == "ARM_THREAD_STATE64")
        let text = try parse(
            "Process: Q [1]\nThread 0 crashed with ARM Thread State (64-bit):\n"
                + "    x0: 0xffffffffffffffff   x1: 0x0000000000000001\n"
                + "   esr: 0x92000006 (Data Abort) byte read Translation fault\n"
        )
        let textRegisters = try #require(text.report.threads.first?.registers)
        #expect(textRegisters.first?.value == HexValue(UInt64.max))
        #expect(textRegisters.last?.description == "(Data Abort) byte read Translation fault")
    }

    @Test func case15BinaryImageForms() throws {
        let result = try parse(
            """
            Process: Quill [1]
            Binary Images:
            0x102a4c000 - 0x102a5ffff Quill arm64  <0A1B2C3D4E5F60718293A4B5C6D7E8F9> /private/var/Quill.app/Quill
            0x1e3d0a000 - 0x1e3d41fff libsystem_kernel.dylib <1e2d3c4b-5a69-7887-9695-a4b3c2d1e0f0> /usr/lib/system/libsystem_kernel.dylib
            0x1f00a0000 - 0x1f00affff libsystem_platform.dylib (*) <9a8b7c6d5e4f30211203f4e5d6c7b8a9> ???
            0x100000000 - 0x100000fff +com.example.helper (1.0 - 12) <5ED9BD63-1111-2222-3333-444455556666> /tmp/helper
            0x7ff81000 - 0x7ff81fff com.apple.AE (539) <11111111-2222-3333-4444-555555555555> /System/AE
            """
        )
        let images = result.report.binaryImages
        #expect(images.count == 5)
        #expect(images[0].arch == "arm64")
        #expect(images[0].uuid == "0a1b2c3d4e5f60718293a4b5c6d7e8f9")
        #expect(images[0].end == HexValue(0x102a5_ffff))
        #expect(images[1].arch == nil)
        #expect(images[1].uuid == "1e2d3c4b5a6978879695a4b3c2d1e0f0")
        #expect(images[2].version == nil)
        #expect(images[2].path == nil)
        #expect(images[3].isApp)
        #expect(images[3].version == "1.0 - 12")
        #expect(images[4].version == "539")
    }

    @Test func case16LastExceptionBacktraceForms() throws {
        let raw = try parse(
            """
            Process: Quill [1]
            Last Exception Backtrace:
            (0x1e3d0e42c 0x102a4c8b0)

            Binary Images:
            0x102a4c000 - 0x102a5ffff Quill arm64  <0a1b2c3d4e5f60718293a4b5c6d7e8f9> /private/var/Quill.app/Quill
            0x1e3d0a000 - 0x1e3d41fff libsystem_kernel.dylib arm64e  <1e2d3c4b5a6978879695a4b3c2d1e0f0> /usr/lib/libsystem_kernel.dylib
            """
        )
        let frames = try #require(raw.report.lastExceptionBacktrace)
        #expect(frames.map(\.image) == ["libsystem_kernel.dylib", "Quill"])
        #expect(frames[1].imageOffset == 0x8b0)
        let list = try parse(
            "Process: Quill [1]\nLast Exception Backtrace:\n0   CoreFoundation 0x00000001a2b3c4d5 __exceptionPreprocess + 164\n"
                + "1   libobjc.A.dylib 0x00000001a2b3c000 objc_exception_throw + 60\n"
        )
        #expect(list.report.lastExceptionBacktrace?.map(\.symbol) == ["__exceptionPreprocess", "objc_exception_throw"])
    }

    @Test func case17PastedIndentedTruncatedAndFragmentReports() throws {
        let pasted = try parse(
            "I get this crash, any idea?\n\n    Exception Type:  EXC_BAD_ACCESS (SIGSEGV)\n"
                + "    Thread 0 Crashed:\n    0   Quill  0x0000000102a4c8b0 main + 12\n    1   Quill  0x00000001"
        )
        #expect(pasted.report.sourceFormat == .fragment)
        #expect(pasted.report.isPartial)
        #expect(pasted.report.exception?.signal == "SIGSEGV")
        // The cut last line still has an index, an image and the start of an address: kept, as written.
        #expect(pasted.report.threads.first?.frames.count == 2)
        #expect(pasted.report.threads.first?.frames.last?.raw?.hasSuffix("0x00000001") == true)
        #expect(pasted.diagnostics.contains { $0.severity == .warning })
        let headerOnly = try parse("Incident Identifier: 1\nProcess: Quill [1]\nOS Version: iPhone OS 15.5 (19F77)\n")
        #expect(headerOnly.report.isPartial)
    }

    @Test func case18ScrubbedPlaceholdersAreKeptAsWritten() throws {
        let result = try parse(
            "CrashReporter Key: CRASHREPORTER_KEY\nProcess: Quill [1]\nPath: /Users/USER/*/Quill.app/Quill\n"
                + "Identifier: TODO\nVersion: [TODO]\n"
        )
        #expect(result.report.crashReporterKey == "CRASHREPORTER_KEY")
        #expect(result.report.path == "/Users/USER/*/Quill.app/Quill")
        #expect(result.report.bundleId == "TODO")
        #expect(result.report.appVersion == "[TODO]")
    }

    @Test func case19SimulatedAndNonFatalAreNotCrashes() throws {
        let simulated = try parse(
            "Process: Quill [1]\nException Type: EXC_CRASH (SIGKILL)\nException Note: SIMULATED (this is NOT a crash)\n"
        )
        #expect(simulated.report.isNotACrash)
        #expect(simulated.report.exception?.isSimulated == true)
        let nonFatal = try parse(
            "Process: Quill [1]\nException Type: EXC_RESOURCE\nException Note: NON-FATAL CONDITION (this is NOT a crash)\n"
        )
        #expect(nonFatal.report.isNotACrash)
        #expect(nonFatal.report.exception?.isNonFatal == true)
    }

    @Test func case21LargeReportsAreReadWhole() throws {
        var text = "Process: Quill [1]\nException Type: EXC_CRASH (SIGABRT)\nThread 0 Crashed:\n"
        for k in 0..<4_000 {
            text += "\(k % 100_000)   Quill  \t0x\(String(0x1_0000_0000 + k * 4, radix: 16)) frame_\(k) + \(k)\n"
        }
        #expect(text.utf8.count > 100_000)
        let result = try parse(text)
        #expect(result.report.threads.first?.frames.count == 4_000)
        #expect(result.report.threads.first?.frames.last?.symbol == "frame_3999")
    }

    @Test func case22CRLFAndNonUTF8Bytes() throws {
        var bytes =
            Array("Process: Qu".utf8) + [0xFF, 0xFE] + Array("ill [7]\r\nException Type: EXC_CRASH (SIGABRT)\r\n".utf8)
        bytes += Array("Thread 0 Crashed:\r\n0   Quill \t0x0000000102a4c8b0 main + 12\r\n".utf8)
        let result = try CrashReportParser().parse(bytes)
        #expect(result.report.process == "Qu\u{FFFD}\u{FFFD}ill")
        #expect(result.report.pid == 7)
        #expect(result.report.exception?.signal == "SIGABRT")
        #expect(result.report.threads.first?.frames.first?.symbol == "main")
        #expect(result.report.threads.first?.frames.first?.raw?.hasSuffix("\r") == false)
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var result = self
        result.replaceSubrange(range, with: replacement)
        return result
    }
}
