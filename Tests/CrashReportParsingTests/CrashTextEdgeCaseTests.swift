import APMInspectCore
import Foundation
import Testing

@testable import CrashReportParsing

/// One test per edge case of the crash-report research (§7), on small inline reports.
@Suite struct CrashTextEdgeCaseTests {
    private func parse(_ text: String) throws -> CrashParseResult {
        try CrashReportParser().parse(Array(text.utf8))
    }

    private static let images = """
        Binary Images:
        0x100a48000 - 0x100a5ffff Lumen arm64  <0a1b2c3d4e5f60718293a4b5c6d7e8f9> /private/var/containers/Bundle/Application/1C3A/Lumen.app/Lumen
        0x1ad951000 - 0x1ade67fff libswiftCore.dylib arm64e  <178BEEAF85DC35A7B02CB951EBA169CE> /usr/lib/swift/libswiftCore.dylib
        """

    @Test func headerFieldsAndEraDependentVersionOrder() throws {
        let old = try parse(
            """
            Incident Identifier: 5B1E8C52-1A4B-4C8E-9D3F-2A7B6C5D4E3F
            Hardware Model:      iPhone12,1
            Process:             Lumen Pro [2211]
            Identifier:          com.example.lumen
            Version:             57 (2.3.1)
            Code Type:           ARM-64 (Native)
            OS Version:          iPhone OS 14.4 (18D52)
            Date/Time:           2021-03-04 10:11:12.4969 +0100
            """
        )
        #expect(old.report.process == "Lumen Pro")
        #expect(old.report.pid == 2211)
        #expect(old.report.appVersion == "2.3.1")
        #expect(old.report.appBuild == "57")
        #expect(old.report.codeType == "ARM-64")
        #expect(old.report.isTranslated == false)
        #expect(old.report.deviceName == "iPhone 11")
        #expect(old.report.osBuild == "18D52")
        #expect(old.report.date?.iso8601 == "2021-03-04T10:11:12.4969+01:00")
        let modern = try parse(
            "Process: Lumen [1]\nVersion: 2.3.1 (57)\nOS Version: iPhone OS 16.1 (20B82)\nCode Type: X86-64 (Translated)\n"
        )
        #expect(modern.report.appVersion == "2.3.1")
        #expect(modern.report.appBuild == "57")
        #expect(modern.report.isTranslated == true)
    }

    @Test func exceptionCodesTwiceAndDecodedBadAccess() throws {
        let result = try parse(
            """
            Process: sleep [10277]
            Exception Type:        EXC_BAD_ACCESS (SIGSEGV)
            Exception Codes:       KERN_INVALID_ADDRESS at 0x0000000000000010
            Exception Codes:       0x0000000000000001, 0x0000000000000010
            Exception Subtype: KERN_PROTECTION_FAILURE at 0x00000001a2b3c4d5 -> 0x0000000102b3c4d5 (possible pointer authentication failure)
            """
        )
        let exception = try #require(result.report.exception)
        #expect(exception.type == "EXC_BAD_ACCESS")
        #expect(exception.signal == "SIGSEGV")
        #expect(exception.codes?.contains("\n") == true)
        #expect(exception.kernReturn == "KERN_INVALID_ADDRESS")
        #expect(exception.faultAddress == HexValue(0x10))
        #expect(exception.possiblePointerAuthenticationFailure == true)
    }

    /// Without numeric codes the kernel return comes from the text of the subtype or codes; the search of the
    /// names is skipped for a text that starts with neither letter they start with.
    @Test func kernelReturnNamedInTheText() throws {
        #expect(CrashReport.Exception.kernReturnNames.values.allSatisfy { $0.hasPrefix("K") || $0.hasPrefix("E") })
        for name in CrashReport.Exception.kernReturnNames.values {
            let result = try parse(
                """
                Process: sleep [10277]
                Exception Type:        EXC_BAD_ACCESS (SIGBUS)
                Exception Subtype: \(name) at 0x0000000000000010
                """
            )
            #expect(result.report.exception?.kernReturn == name)
        }
        let other = try parse("Process: sleep [1]\nException Type: EXC_CRASH (SIGABRT)\nException Codes: 0x0, 0x0\n")
        #expect(other.report.exception?.kernReturn == nil)
    }

    @Test(arguments: [
        (
            "Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d", "SPRINGBOARD", UInt64(0x8bad_f00d),
            String?.none
        ),
        (
            "Termination Reason:    Namespace SIGNAL, Code 11 Segmentation fault: 11", "SIGNAL", 11,
            "Segmentation fault: 11"
        ),
        ("Termination Reason: SIGNAL 5 Trace/BPT trap: 5", "SIGNAL", 5, "Trace/BPT trap: 5"),
        ("Termination Reason: FRONTBOARD 2343432205 ", "FRONTBOARD", 0x8bad_f00d, nil),
    ])
    func terminationGrammars(line: String, namespace: String, code: UInt64, indicator: String?) throws {
        let result = try parse("Process: App [1]\n\(line)\nTriggered by Thread: 0\n")
        let termination = try #require(result.report.termination)
        #expect(termination.namespace == namespace)
        #expect(termination.code == HexValue(code))
        #expect(termination.indicator == indicator)
    }

    @Test func terminationContinuationLinesAndDescriptionParts() throws {
        let result = try parse(
            """
            Process: Lumen [64385]
            Termination Reason: FRONTBOARD 2343432205
            <RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression
            ProcessVisibility: Background
            WatchdogEvent: scene-update
            ) reportType:CrashLog maxTerminationResistance:Interactive>

            Triggered by Thread:  0
            """
        )
        let termination = try #require(result.report.termination)
        #expect(termination.reasons.count == 4)
        #expect(termination.reasons[1] == "ProcessVisibility: Background")
        let old = try parse(
            "Process: A [1]\nTermination Description: SPRINGBOARD, scene-update watchdog transgression | ProcessState: Running\n"
        )
        #expect(
            old.report.termination?.reasons == [
                "SPRINGBOARD, scene-update watchdog transgression", "ProcessState: Running",
            ]
        )
        #expect(old.report.termination?.namespace == "SPRINGBOARD")
    }

    @Test func threadHeaderZoo() throws {
        let result = try parse(
            """
            Process: App [1]
            Triggered by Thread:  2

            Thread 0 name:   Dispatch queue: com.apple.main-thread
            Thread 0:
            0   libsystem_kernel.dylib        \t0x00000001b2c3d4e8 mach_msg_trap + 8

            Thread 1:: JavaScriptCore::Marking
            0   JavaScriptCore                \t0x00000001b2c3d4e8 0x1b2000000 + 12887272

            Thread 2 name:  tid_303  Dispatch queue: com.example.work
            Thread 2 Attributed:
            0   App                           \t0x0000000100a4c7a4 work() + 40

            Thread 3 Crashed:: Dispatch queue: com.apple.main-thread
            0   App                           \t0x0000000100a4c7a4 other() + 4
            """
        )
        let threads = result.report.threads
        #expect(threads.map(\.index) == [0, 1, 2, 3])
        #expect(threads[0].queue == "com.apple.main-thread")
        #expect(threads[0].name == nil)
        #expect(threads[1].name == "JavaScriptCore::Marking")
        #expect(threads[2].name == "tid_303")
        #expect(threads[2].queue == "com.example.work")
        #expect(threads[2].attributed)
        #expect(!threads[2].crashed)
        #expect(threads[3].crashed)
        #expect(result.report.crashedThread == 2)
        #expect(threads[1].frames.first?.imageOffset == 12_887_272)
    }

    @Test(arguments: [
        (
            "0   App Namespace                 \t0x0000000100a4c7a4 Foo.bar() + 28 (Foo.swift:231)", "App Namespace",
            "Foo.bar()", UInt64?(28), "Foo.swift", Int?(231), Int?.none
        ),
        (
            "3   UIKitCore    \t       0x1ad98ab74 main (in iOSTest) (AppDelegate.swift:9)", "UIKitCore", "main", nil,
            "AppDelegate.swift", 9, nil
        ),
        (
            "1   libobjc.A.dylib  0x18ce0fbcc objc_exception_throw + 59", "libobjc.A.dylib", "objc_exception_throw", 59,
            nil, nil, nil
        ),
        ("2   ???  000000000000000000 0 + 0", "???", nil, nil, nil, nil, nil),
        (
            "4   CoreFoundation 0x18d0ed5f0 -[__NSCFString characterAtIndex:].cold.1 + 12", "CoreFoundation",
            "-[__NSCFString characterAtIndex:].cold.1", 12, nil, nil, nil
        ),
        (
            "5   App 0x100a4c7a4 closure #1 in f() + 4 (<compiler-generated>:0:12)", "App", "closure #1 in f()", 4,
            "<compiler-generated>", 0, 12
        ),
        (
            // The symbol a third-party symbolicator wrote in the trailing comment is the frame's symbol.
            "6   libsystem_kernel.dylib 0x193c9c000 + 0xe0c \t// mach_msg_trap + 0x8", "libsystem_kernel.dylib",
            "mach_msg_trap", 8, nil, nil, nil
        ),
    ])
    func frameLineForms(
        line: String,
        image: String,
        symbol: String?,
        offset: UInt64?,
        file: String?,
        lineNumber: Int?,
        column: Int?
    ) throws {
        let frame = try #require(CrashTextReader.parseFrame(Substring(line), raw: Substring(line)))
        #expect(frame.image == image)
        #expect(frame.symbol == symbol)
        #expect(frame.symbolOffset == offset)
        #expect(frame.file == file)
        #expect(frame.line == lineNumber)
        #expect(frame.column == column)
        #expect(frame.raw == line)
    }

    @Test func sideBySideSymbolication() throws {
        let line = "2   libsystem_pthread.dylib 0x00007fff51e3f8a6 0x7fff51e3a000 + 22694 (__psynch_mutexwait + 10)"
        let frame = try #require(CrashTextReader.parseFrame(Substring(line), raw: Substring(line)))
        #expect(frame.imageOffset == 22694)
        #expect(frame.symbol == "__psynch_mutexwait")
        #expect(frame.symbolOffset == 10)
    }

    /// Xcode, `symbolicate` and `translate` mark an inlined function's frame: the mark is the flag, not the name.
    @Test func anInlinedMarkIsTheFrameFlag() throws {
        let line = "1   Demo   \t0x0000000102f2004c adjust + 20 (main.c:9) [inlined]"
        let frame = try #require(CrashTextReader.parseFrame(Substring(line), raw: Substring(line)))
        #expect(frame.inlined == true)
        #expect(frame.symbol == "adjust")
        #expect(frame.symbolOffset == 20)
        #expect(frame.file == "main.c" && frame.line == 9)
        let concrete = try #require(
            CrashTextReader.parseFrame(Substring("2   Demo 0x102f2004c compute + 76 (main.c:16)"), raw: "")
        )
        #expect(concrete.inlined == nil)
    }

    @Test func signalOnlyExceptionTypeIsASignal() throws {
        let result = try parse(
            "Process: Relay [3321]\nException Type:  SIGSEGV\nException Codes: SEGV_MAPERR at 0x28\n"
        )
        // The type stays as written (there is no Mach name to put there); the signal is read from it.
        #expect(result.report.exception?.type == "SIGSEGV")
        #expect(result.report.exception?.signal == "SIGSEGV")
        #expect(result.report.exception?.typeAndSignal == "SIGSEGV")
        #expect(result.report.exception?.faultAddress == HexValue(0x28))
    }

    @Test func hexOffsetAfterBaseIsTheImageOffset() throws {
        let line = "6   libsystem_kernel.dylib 0x193c9ce0c 0x193c9c000 + 0xe0c \t// mach_msg_trap + 0x8"
        let frame = try #require(CrashTextReader.parseFrame(Substring(line), raw: Substring(line)))
        #expect(frame.imageOffset == 0xe0c)
        #expect(frame.symbol == "mach_msg_trap")
        #expect(frame.symbolOffset == 8)
    }

    /// Third-party symbolication in a trailing comment: `0x… 0x… + 0x…\t// symbol + 0x…` (issue 20).
    @Test func trailingCommentSymbolIsTheFrameSymbol() throws {
        let line =
            "2   CoreUI    0x189699354 0x189622000 + 0x77354\t// -[CUICatalog _resolvedRenditionKeyFromThemeRef:withBaseKey:] + 0x824"
        let frame = try #require(CrashTextReader.parseFrame(Substring(line), raw: Substring(line)))
        #expect(frame.image == "CoreUI")
        #expect(frame.address == HexValue(0x1_8969_9354))
        #expect(frame.imageOffset == 0x77354)
        #expect(frame.symbol == "-[CUICatalog _resolvedRenditionKeyFromThemeRef:withBaseKey:]")
        #expect(frame.symbolOffset == 0x824)
        #expect(frame.raw == line)
        // A comment that is not a symbol (an address) leaves the frame unsymbolicated.
        let bare = "3   CoreUI    0x189699354 0x189622000 + 0x77354\t// 0x189699354"
        let plain = try #require(CrashTextReader.parseFrame(Substring(bare), raw: Substring(bare)))
        #expect(plain.symbol == nil)
        #expect(plain.imageOffset == 0x77354)
    }

    /// Apple's text splices the image offset into a symbol, at its first parenthesis (issue 20).
    @Test(arguments: [
        (
            "5   CoreFoundation  0x1a0b2c3d4 -[NSObject+ 183052 (NSObject) doesNotRecognizeSelector:] + 143",
            "-[NSObject(NSObject) doesNotRecognizeSelector:]", UInt64?(143)
        ),
        (
            "0   libswiftCore.dylib  0x19a0c8f58 _assertionFailure+ 228276 (_:_:file:line:flags:) + 384",
            "_assertionFailure(_:_:file:line:flags:)", UInt64?(384)
        ),
        (
            "1   libswiftCore.dylib  0x19a0c8f58 specialized _fatalErrorMessage+ 2378352 (_:_:file:line:flags:) + 384",
            "specialized _fatalErrorMessage(_:_:file:line:flags:)", UInt64?(384)
        ),
        (
            "2   CoreFoundation  0x1a0b2c3d4 -[NSObject+ 183052 (NSObject) doesNotRecognizeSelector:]",
            "-[NSObject(NSObject) doesNotRecognizeSelector:]", nil
        ),
        // Not a splice: a space before the `+`, or no parenthesis after the number.
        ("3   App  0x100004000 operator+ (Vector const&) + 12", "operator+ (Vector const&)", UInt64?(12)),
    ])
    func splicedOffsetIsTakenOutOfTheSymbol(line: String, symbol: String, offset: UInt64?) throws {
        let frame = try #require(CrashTextReader.parseFrame(Substring(line), raw: Substring(line)))
        #expect(frame.symbol == symbol)
        #expect(frame.symbolOffset == offset)
        #expect(frame.raw == line)
    }

    @Test func binaryImageForms() throws {
        let ios = try #require(
            CrashTextReader.parseImage(
                "0x102aec000 - 0x102b03fff TouchCanvas arm64  <fe7745ae12db30fa886c8baa1980437a> /var/containers/Bundle/Application/X/TouchCanvas.app/TouchCanvas"
            )
        )
        #expect(ios.name == "TouchCanvas")
        #expect(ios.arch == "arm64")
        #expect(ios.end == HexValue(0x102b_03fff))
        let mac = try #require(
            CrashTextReader.parseImage(
                "       0x1025e5000 -        0x1025e6ffb +com.example.TouchCanvas (1.0 - 1) <5ED9BD63-2A55-3DDD-B3FF-EFCF61382F6F> /Users/USER/*/TouchCanvas.app/Contents/MacOS/TouchCanvas"
            )
        )
        #expect(mac.name == "com.example.TouchCanvas")
        #expect(mac.isApp)
        #expect(mac.version == "1.0 - 1")
        #expect(mac.uuid == "5ed9bd632a553dddb3ffefcf61382f6f")
        #expect(mac.arch == nil)
        let star = try #require(
            CrashTextReader.parseImage(
                "0x7ff81f31c000 - 0x7ff81f795fff libswiftCore.dylib (*) <19d7b567-6d0a-356a-8a2b-b45162bd77ab> /usr/lib/swift/libswiftCore.dylib"
            )
        )
        #expect(star.version == nil)
        #expect(star.name == "libswiftCore.dylib")
    }

    @Test func rawLastExceptionBacktraceIsMappedToImages() throws {
        let result = try parse(
            """
            Process: Lumen [1]
            Last Exception Backtrace:
            (0x1ad98ab74 0x100a4c7a4 0xdeadbeef)

            \(Self.images)
            """
        )
        let frames = try #require(result.report.lastExceptionBacktrace)
        #expect(frames.count == 3)
        #expect(frames[0].image == "libswiftCore.dylib")
        #expect(frames[0].imageOffset == 0x1ad9_8ab74 - 0x1ad9_51000)
        #expect(frames[1].image == "Lumen")
        #expect(frames[1].isAppFrame == true)
        #expect(frames[2].image == nil)
    }

    @Test func simulatedAndNonFatalAreNotCrashes() throws {
        let result = try parse(
            "Process: A [1]\nException Type: EXC_RESOURCE\nException Note:  NON-FATAL CONDITION (this is NOT a crash)\n"
        )
        #expect(result.report.isNotACrash)
        let crash = try parse("Process: A [1]\nException Type: EXC_CRASH (SIGABRT)\n")
        #expect(!crash.report.isNotACrash)
    }

    @Test func fragmentsAndCRLF() throws {
        let result = try parse(
            "    Exception Type:  EXC_BREAKPOINT (SIGTRAP)\r\n    Triggered by Thread:  0\r\n\r\n    Thread 0 Crashed:\r\n"
                + "    0   App  \t0x0000000100a4c7a4 f() + 4\r\n"
        )
        #expect(result.report.sourceFormat == .fragment)
        #expect(result.report.isPartial)
        #expect(result.report.exception?.signal == "SIGTRAP")
        #expect(result.report.threads.first?.frames.first?.symbol == "f()")
        #expect(result.diagnostics.contains { $0.code == .crashFragment })
    }

    @Test func unknownHeaderKeysAreKept() throws {
        let result = try parse("Process: A [1]\nShoe Size: 43\nTime Awake Since Boot: 29000 seconds\n")
        #expect(result.report.unknownKeys?["Shoe Size"] == .string("43"))
    }

    @Test func nonCrashBugTypesAreRefused() {
        #expect {
            try parse("{\"bug_type\":\"151\",\"os_version\":\"iPhone OS 16.2\"}\n{\"panicString\":\"x\"}")
        } throws: { ($0 as? CrashParseError)?.code == .notACrashReport }
        #expect {
            try parse("{\"bug_type\":\"298\"}\n{\"processes\":[]}")
        } throws: { ($0 as? CrashParseError)?.code == .notACrashReport }
    }
}

/// Random reports assembled from real line shapes, cut anywhere: the parser never traps.
@Suite struct CrashRobustnessTests {
    private static let pieces = [
        "Process: A [1]", "Thread 0 Crashed:", "Thread 1 name:  x", "0   App \t0x0000000100a4c7a4 f() + 4",
        "1 ??? 0 + 0", "Binary Images:", "0x100a48000 - 0x100a5ffff App arm64  <0a1b> /p", "Last Exception Backtrace:",
        "(0x1 0xzz 0x100a4c7a4", "Termination Reason: Namespace", "Termination Reason: SIGNAL x", "Exception Type: (",
        "Thread 0 crashed with ARM Thread State (64-bit):", "x0: 0x1 x1:", "EOF", "", "Version: (", "Process: [",
        "Exception Codes: 0x, at 0x", "Thread 99999999999999999999:", "0x - 0x", "{", "\u{FEFF}", "\r",
    ]

    @Test func assembledReportsNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let count = Int.random(in: 0...30, using: &generator)
            var lines: [String] = []
            for _ in 0..<count { lines.append(Self.pieces.randomElement(using: &generator) ?? "") }
            var text = lines.joined(separator: "\n")
            if !text.isEmpty { text = String(text.prefix(Int.random(in: 0...text.count, using: &generator))) }
            _ = try? CrashReportParser().parse(Array(text.utf8))
        }
    }
}

/// The §7 cases about size and bytes: large reports (21), non-UTF-8 bytes (22), JSON followed by text (1).
@Suite struct CrashLargeAndOddInputTests {
    @Test func largeReportKeepsEveryFrame() throws {
        var text =
            "Process: Big [1]\nException Type: EXC_CRASH (SIGABRT)\nTriggered by Thread:  0\n\nThread 0 Crashed:\n"
        for index in 0..<20_000 {
            let address = String(0x1_0000_0000 + UInt64(index) * 16, radix: 16)
            text += "\(index)   Big                           \t0x\(address) work\(index)() + 16\n"
        }
        text +=
            "\nBinary Images:\n0x100000000 - 0x10fffffff Big arm64  <0a1b2c3d4e5f60718293a4b5c6d7e8f9> /var/Big.app/Big\n"
        #expect(text.utf8.count > 1_000_000)
        let report = try CrashReportParser().parse(Array(text.utf8)).report
        #expect(report.threads.first?.frames.count == 20_000)
        #expect(report.threads.first?.frames.last?.symbol == "work19999()")
        #expect(report.threads.first?.frames.last?.isAppFrame == true)
    }

    @Test func invalidUTF8IsReplacedNotFatal() throws {
        var bytes = Array("Process: Odd [7]\nException Type: EXC_CRASH (SIGABRT)\nThread 0 Crashed:\n0   Odd".utf8)
        bytes += [0xFF, 0xFE, 0x20]
        bytes += Array("  \t0x0000000100a4c7a4 f\u{e9}() + 4\n".utf8)
        let report = try CrashReportParser().parse(bytes).report
        #expect(report.process == "Odd")
        let frame = try #require(report.threads.first?.frames.first)
        #expect(frame.symbol == "fé()")
        #expect(frame.image?.contains("\u{FFFD}") == true)
    }

    @Test func jsonBodyFollowedBySystemProfileText() throws {
        let text = """
            {"bug_type":"309","os_version":"macOS 12.4 (21F79)","name":"Tool"}
            {"procName":"Tool","pid":5,"exception":{"type":"EXC_BAD_ACCESS","signal":"SIGSEGV"},"threads":[],"usedImages":[]}

            System Profile:
            Model: MacBookPro18,3, BootROM 7459.121.3, 8 processors
            """
        let result = try CrashReportParser().parse(Array(text.utf8))
        #expect(result.report.process == "Tool")
        #expect(result.report.exception?.signal == "SIGSEGV")
        #expect(result.diagnostics.contains { $0.code == .crashTextBesideBody })
    }
}

/// Frames keep their raw lines as ranges of the report's bytes; read, compared and encoded they are plain text.
@Suite struct FrameRawLineTests {
    @Test func rawLinesReadCompareAndEncodeAsText() throws {
        let line = "3   libsystem_kernel.dylib        \t0x00000001e3d0e42c __pthread_kill + 8"
        let report = try CrashReportParser().parse(Array("Process: Quill [1]\nThread 0 Crashed:\n\(line)\n".utf8))
            .report
        let frame = try #require(report.threads.first?.frames.first)
        #expect(frame.raw == line)
        var copy = frame
        copy.raw = line
        #expect(copy == frame)
        copy.raw = line + " "
        #expect(copy != frame)
        let decoded = try JSONDecoder().decode(CrashReport.Frame.self, from: JSONEncoder().encode(frame))
        #expect(decoded == frame)
        #expect(decoded.raw == line)
    }
}
