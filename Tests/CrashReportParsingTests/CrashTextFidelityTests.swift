import APMInspectCore
import Foundation
import Testing

@testable import CrashReportParsing

/// Issue 42, fidelity round 2: the facts of Apple-format crash text as other projects' expected outputs give them
/// (docs/fidelity.md, "Crash reports (text)" and "KSCrash text with a recrash report"), on crafted reports.
@Suite struct CrashTextFidelityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    private func parse(_ text: String) throws -> CrashParseResult {
        try CrashReportParser().parse(Array(text.utf8))
    }

    private static func corpus(_ name: String) throws -> CrashParseResult {
        let path = root.appendingPathComponent("Corpus/crash/\(name)").path
        return try CrashReportParser().parse(try FileReading.contents(atPath: path))
    }

    static let recrashSample = "kscrash_style_ios14.8_recrash_handler_crashed_while_reporting_kvo_nsexception.crash"

    // MARK: - KSCrash text with a recrash report

    /// KSCrash's AppleFmt layout of today: `Triggered by Thread:`, `EOF`, its extras after `EOF`, then the report of
    /// the crash in its own handler after `Handler crashed while reporting:`.
    @Test func recrashSampleMainReportIsTheCrashThatHappened() throws {
        let result = try Self.corpus(Self.recrashSample)
        let report = result.report
        #expect(report.crashedThread == 0)
        let exception = try #require(report.exception)
        #expect(exception.type == "EXC_CRASH")
        #expect(exception.signal == "SIGABRT")
        // Only the main report's codes: the recrash's `KERN_INVALID_ADDRESS at …` is not joined to them.
        #expect(exception.codes == "0x00000000 at 0x0000000000000000")
        #expect(exception.codeValues == [HexValue(0)])
        #expect(exception.faultAddress == HexValue(0))
        let crashed = try #require(report.threads.first { $0.index == 0 })
        #expect(crashed.crashed)
        #expect(crashed.queue == "com.apple.main-thread")
        #expect(crashed.frames.count == 21)
        #expect(crashed.frames.first?.symbol == "__exceptionPreprocess")
        #expect(crashed.frames.first?.address == HexValue(0x1_8e35_12c4))
        #expect(crashed.frames[3].isAppFrame == true)
        // KSCrash had no registers for an NSException: the heading alone.
        #expect(crashed.registers == [])
        #expect(crashed.registerFlavor == "ARM-64 Thread State")
        // The handler's thread is listed, empty and not crashed, in the main report.
        let handler = try #require(report.threads.first { $0.index == 5 })
        #expect(handler.name == "KSCrash Exception Handler (Primary)")
        #expect(!handler.crashed)
        #expect(handler.frames.isEmpty)
        #expect(report.threads.filter(\.crashed).map(\.index) == [0])
        #expect(report.signatureFrames?.first == "Driftwood+0xcc04")
        #expect(report.isPartial)
        // What KSCrash writes after `EOF` is read too.
        #expect(report.blocks.map(\.title).contains("Application Stats"))
        #expect(report.blocks.first { $0.title == "CrashDoctor Diagnosis" }?.lines.count == 1)
        #expect(report.unknownKeys == nil)
        let said = try #require(result.diagnostics.first { $0.code == .kscrashRecrashText })
        #expect(said.severity == .warning)
        #expect(said.location?.line == 123)
        #expect(!result.diagnostics.contains { $0.code == .crashUnparsedLines || $0.code == .crashCutShort })
    }

    @Test func recrashSampleRecrashIsItsOwnReport() throws {
        let recrash = try #require(try Self.corpus(Self.recrashSample).report.recrashReport)
        #expect(recrash.crashedThread == 5)
        let exception = try #require(recrash.exception)
        #expect(exception.type == "EXC_BAD_ACCESS")
        #expect(exception.signal == "SIGSEGV")
        #expect(exception.codes == "KERN_INVALID_ADDRESS at 0x0000000000000010")
        #expect(exception.kernReturn == "KERN_INVALID_ADDRESS")
        #expect(exception.faultAddress == HexValue(0x10))
        #expect(recrash.threads.map(\.index) == [5])
        let thread = try #require(recrash.threads.first)
        #expect(thread.crashed)
        #expect(thread.name == "KSCrash Exception Handler (Primary)")
        #expect(thread.frames.count == 8)
        // Matched to the main report's images, which the recrash report does not repeat.
        #expect(thread.frames[0].address == HexValue(0x1_00a5_b3c4))
        #expect(thread.frames[0].image == "Driftwood")
        #expect(thread.frames[0].imageOffset == 78788)
        #expect(thread.frames[0].isAppFrame == true)
        #expect(thread.frames[6].symbol == "_pthread_start")
        #expect(thread.frames[6].isAppFrame == false)
        #expect(thread.registerFlavor == "ARM-64 Thread State")
        #expect(thread.registers?.count == 34)
        #expect(thread.registers?.first { $0.name == "pc" }?.value == HexValue(0x1_00a5_b3c4))
        #expect(thread.registers?.first { $0.name == "lr" }?.value == HexValue(0x1_00a5_a1f0))
        let diagnosis = try #require(recrash.blocks.first { $0.title == "Recrash Diagnosis" })
        #expect(
            diagnosis.lines == [
                "Attempted to dereference garbage pointer 0x10.",
                "Originated at or in a subcall of -[DWBreadcrumbStore appendCrashMarker:]",
            ]
        )
        #expect(recrash.binaryImages.isEmpty)
        #expect(recrash.process == nil)
        #expect(recrash.recrashReport == nil)
        #expect(recrash.signatureFrames?.first == "Driftwood+0x133c4")
        #expect(!recrash.isPartial)
    }

    /// The layout of KSCrash 1.x (its own Example-Reports): `Crashed Thread:`, no `EOF`, the extras before the
    /// recrash, and the recrash's crashed thread listed empty in the main report.
    @Test func olderLayoutRecrash() throws {
        let result = try parse(
            """
            Incident Identifier: 3D0C2B4E-9A1F-4E77-8C52-6B1D0E9F3A24
            CrashReporter Key:   0d4e6c1a9b2f47e58a3c7d9e1f0b2a4c6e8d0f13
            Hardware Model:      iPhone4,1
            Process:         Pinwheel [812]
            Path:            /var/mobile/Applications/6A0E2F1C-4B3D-4E5F-8A7B-9C0D1E2F3A4B/Pinwheel.app/Pinwheel
            Identifier:      com.hollowoak.pinwheel
            Version:         31 (1.4)
            Code Type:       ARM
            Parent Process:  launchd [1]

            Date/Time:       2013-05-02 11:24:09.000 +0200
            OS Version:      iPhone OS 6.1.3 (10B329)
            Report Version:  104

            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
            Exception Codes: KERN_INVALID_ADDRESS at 0x00000018
            Crashed Thread:  0

            Thread 0 name:  Dispatch queue: com.apple.main-thread
            Thread 0 Crashed:
            0   Pinwheel                        0x0007a1c4 0x6e000 + 49604 (-[PWWheel spin] + 20)
            1   UIKit                           0x31c2f0ad 0x31bf6000 + 233645 (-[UIApplication sendAction:to:from:forEvent:] + 73)

            Thread 1 name:  KSCrash Exception Handler (Primary)
            Thread 1:

            Thread 0 crashed with ARM Thread State:
                r0: 0x00000000     r1: 0x0009c2e0     r2: 0x00000001     r3: 0x00000018 
                ip: 0x3a0f5b21     sp: 0x2fd91a80     lr: 0x31c2f0ad     pc: 0x0007a1c4 
              cpsr: 0x20000030 

            Binary Images:
               0x6e000 -    0xa1fff +Pinwheel armv7  <5f1e2d3c4b5a69788796a5b4c3d2e1f0> /var/mobile/Applications/6A0E2F1C-4B3D-4E5F-8A7B-9C0D1E2F3A4B/Pinwheel.app/Pinwheel
            0x31bf6000 - 0x3210cfff  UIKit armv7  <d2b9c1e0f3a4c5d6e7f8091a2b3c4d5e> /System/Library/Frameworks/UIKit.framework/UIKit

            Extra Information:

            CrashDoctor Diagnosis: Attempted to dereference garbage pointer 0x18.
            Originated at or in a subcall of -[PWWheel spin]

            Handler crashed while reporting:

            Exception Type:  EXC_BAD_ACCESS (SIGBUS)
            Exception Codes: KERN_PROTECTION_FAILURE at 0x00000000
            Crashed Thread:  1

            Thread 1 name:  KSCrash Exception Handler (Primary)
            Thread 1 Crashed:
            0   Pinwheel                        0x0008c0a8 0x6e000 + 123048 (onCrash + 32)
            1   Pinwheel                        0x0008d4b0 0x6e000 + 128176 (kscrashreport_writeStandardReport + 600)

            Thread 1 crashed with ARM Thread State:
                r0: 0x00000000     r1: 0x0009c2e0     r2: 0x00000001     r3: 0x00000000 
                pc: 0x0008c0a8 

            Recrash Diagnosis: Attempted to dereference null pointer.
            Originated at or in a subcall of onCrash
            """
        )
        let report = result.report
        #expect(report.crashedThread == 0)
        #expect(report.exception?.signal == "SIGSEGV")
        #expect(report.exception?.codes == "KERN_INVALID_ADDRESS at 0x00000018")
        #expect(report.exception?.faultAddress == HexValue(0x18))
        #expect(report.threads.first { $0.index == 0 }?.frames.first?.symbol == "-[PWWheel spin]")
        #expect(
            report.threads.first { $0.index == 0 }?.registers?.first { $0.name == "pc" }?.value == HexValue(0x7a1c4)
        )
        #expect(report.threads.first { $0.index == 1 }?.frames.isEmpty == true)
        #expect(report.threads.first { $0.index == 1 }?.crashed == false)
        #expect(report.blocks.first { $0.title == "CrashDoctor Diagnosis" }?.lines.count == 2)
        #expect(!report.blocks.contains { $0.title == "Recrash Diagnosis" || $0.title.hasPrefix("Handler") })
        let recrash = try #require(report.recrashReport)
        #expect(recrash.crashedThread == 1)
        #expect(recrash.exception?.signal == "SIGBUS")
        #expect(recrash.exception?.codes == "KERN_PROTECTION_FAILURE at 0x00000000")
        #expect(recrash.threads.first?.frames.map(\.symbol) == ["onCrash", "kscrashreport_writeStandardReport"])
        #expect(recrash.threads.first?.frames.allSatisfy { $0.isAppFrame == true } == true)
        #expect(recrash.threads.first?.registers?.count == 5)
        #expect(recrash.blocks.first { $0.title == "Recrash Diagnosis" }?.lines.count == 2)
        #expect(result.diagnostics.map(\.code) == [.kscrashRecrashText])
    }

    /// A file that starts with the marker holds only the handler's report: that is the report, as for the JSON.
    @Test func recrashOnlyText() throws {
        let result = try parse(
            """
            Handler crashed while reporting:

            Exception Type:  EXC_BAD_ACCESS (SIGBUS)
            Exception Codes: KERN_PROTECTION_FAILURE at 0x00000000
            Crashed Thread:  7

            Thread 7 Crashed:
            0   libsystem_c.dylib               0x3625d1dc 0x36231000 + 180700 (__vfprintf + 160)
            """
        )
        #expect(result.report.crashedThread == 7)
        #expect(result.report.exception?.signal == "SIGBUS")
        #expect(result.report.recrashReport == nil)
        #expect(result.report.isPartial)
        #expect(result.diagnostics.contains { $0.code == .kscrashRecrashOnly && $0.location?.line == 1 })
    }

    /// The marker counts only as a line of its own: in other text it splits nothing.
    @Test func markerInsideALineIsNoSplit() throws {
        let result = try parse(
            """
            Process:         Pinwheel [812]
            Exception Type:  EXC_CRASH (SIGABRT)
            Crashed Thread:  0

            Application Specific Information:
            log: Handler crashed while reporting: nothing

            Thread 0 Crashed:
            0   Pinwheel                        0x0007a1c4 0x6e000 + 49604
            """
        )
        #expect(result.report.recrashReport == nil)
        #expect(!result.diagnostics.contains { $0.code == .kscrashRecrashText })
        #expect(result.report.applicationSpecificInformation == ["log: Handler crashed while reporting: nothing"])
    }

    /// The nested report is an added key of the JSON, absent when there is none, and decodes back.
    @Test func recrashReportInTheJSON() throws {
        let report = try Self.corpus(Self.recrashSample).report
        let text = try SortedJSONEncoder(pretty: false).encode(report)
        #expect(text.contains(#""recrashReport":{"#))
        let decoded = try JSONDecoder().decode(CrashReport.self, from: Data(text.utf8))
        #expect(decoded.recrashReport?.crashedThread == 5)
        #expect(decoded.recrashReport?.exception == report.recrashReport?.exception)
        let plain = try Self.corpus("ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash").report
        let plainText = try SortedJSONEncoder(pretty: false).encode(plain)
        #expect(!plainText.contains("recrashReport"))
        #expect(try JSONDecoder().decode(CrashReport.self, from: Data(plainText.utf8)).recrashReport == nil)
    }

    // MARK: - Thread State headings that name no thread

    /// `Thread State:` alone: its register lines are the crashed thread's, not header fields.
    @Test func bareThreadStateHeading() throws {
        let result = try parse(
            """
            Process:         Tallyho [417]
            Hardware Model:  iPhone3,1
            OS Version:      iPhone OS 4.3.3 (8J2)
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
            Exception Codes: KERN_INVALID_ADDRESS at 0x0000000c
            Crashed Thread:  0

            Thread 0 Crashed:
            0   libobjc.A.dylib                 0x3418efbc objc_msgSend + 20
            1   Tallyho                         0x0000a1d4 0x1000 + 37332

            Thread State:
                r0: 0x00000000    r1: 0x3302f7d5      r2: 0x00000001      r3: 0x0000000c
                r4: 0x00204e50    r5: 0x00000000      r6: 0x2fffe618      r7: 0x2fffe5fc
                sp: 0x2fffe5e0    lr: 0x0000a1d4      pc: 0x3418efbc    cpsr: 0x20000010

            Binary Images:
                0x1000 -    0x2cfff +Tallyho armv7  <4e1d8c0b2a9f47d6b3c5e7f90a1b2c3d> /var/mobile/Applications/0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9/Tallyho.app/Tallyho
            0x34187000 - 0x34238fff  libobjc.A.dylib armv7  <7c2b9a1e0d3f4e5a8b6c7d8e9f0a1b2c> /usr/lib/libobjc.A.dylib
            """
        )
        let report = result.report
        #expect(report.unknownKeys == nil)
        #expect(!result.diagnostics.contains { $0.code == .crashUnparsedLines })
        let crashed = try #require(report.threads.first { $0.index == 0 })
        #expect(crashed.registerFlavor == "Thread State")
        #expect(crashed.registers?.count == 12)
        #expect(crashed.registers?.first == CrashReport.Register(name: "r0", value: HexValue(0)))
        #expect(crashed.registers?.first { $0.name == "pc" }?.value == HexValue(0x3418_efbc))
        #expect(crashed.frames.count == 2)
        #expect(report.threads.count == 1)
    }

    /// Mac OS X 10.3's `PPC Thread State:` under `Thread 0 Crashed:`: the crashed thread's, found by its heading.
    @Test func ppcThreadStateNamesNoThread() throws {
        let result = try parse(
            """
            Date/Time:      2005-03-14 10:21:44 +0100
            OS Version:     10.3.8 (Build 7U16)

            Command: Harbor
            Path:    /Applications/Harbor.app/Contents/MacOS/Harbor
            Version: 1.2 (12)
            PID:     412
            Thread:  1

            Exception:  EXC_BAD_ACCESS (0x0001)
            Codes:      KERN_INVALID_ADDRESS (0x0001) at 0x00000010

            Thread 0:
            0   libSystem.B.dylib   0x900074c8 mach_msg_trap + 0x8

            Thread 1 Crashed:
            0   libobjc.A.dylib     0x90831100 objc_msgSend + 0x20
            1   Harbor              0x00012a34 0x1000 + 72244

            PPC Thread State:
              srr0: 0x90831100 srr1: 0x0000f030                vrsave: 0x00000000
                cr: 0x24024242  xer: 0x00000000   lr: 0x00012a34  ctr: 0x90831080
                r0: 0x00012a34   r1: 0xf0101b70   r2: 0x00000000   r3: 0x00000010
            """
        )
        let report = result.report
        #expect(report.crashedThread == 1)
        let crashed = try #require(report.threads.first { $0.index == 1 })
        #expect(crashed.registerFlavor == "PPC Thread State")
        #expect(
            crashed.registers?.map(\.name) == [
                "srr0", "srr1", "vrsave", "cr", "xer", "lr", "ctr", "r0", "r1", "r2", "r3",
            ]
        )
        #expect(crashed.registers?.first?.value == HexValue(0x9083_1100))
        #expect(report.threads.first { $0.index == 0 }?.registers == nil)
        #expect(report.unknownKeys?["srr0"] == nil)
        #expect(report.unknownKeys?["cr"] == nil)
    }

    /// With no crashed thread to give them to, or a crashed thread that has its registers, the block is kept as
    /// written rather than guessed.
    @Test func bareThreadStateWithoutAThreadIsKeptAsABlock() throws {
        let noCrashed = try parse(
            """
            Process:         Tallyho [417]
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)

            Thread 0:
            0   libobjc.A.dylib                 0x3418efbc objc_msgSend + 20

            Thread State:
                r0: 0x00000000    r1: 0x3302f7d5
            """
        )
        let block = try #require(noCrashed.report.blocks.first { $0.title == "Thread State" })
        #expect(block.lines == ["    r0: 0x00000000    r1: 0x3302f7d5"])
        #expect(noCrashed.report.threads.allSatisfy { $0.registers == nil })
        let twice = try parse(
            """
            Process:         Tallyho [417]
            Crashed Thread:  0

            Thread 0 Crashed:
            0   libobjc.A.dylib                 0x3418efbc objc_msgSend + 20

            Thread 0 crashed with ARM Thread State:
                r0: 0x00000001    r1: 0x00000002

            ARM Thread State:
                r0: 0x00000003    r1: 0x00000004
            """
        )
        #expect(twice.report.threads.first?.registers?.map(\.value) == [HexValue(1), HexValue(2)])
        #expect(twice.report.blocks.first { $0.title == "ARM Thread State" }?.lines.count == 1)
    }

    /// A report that names its crashed thread but lists no threads: the thread is made for its registers.
    @Test func bareThreadStateMakesTheNamedCrashedThread() throws {
        let result = try parse(
            """
            Process:         Tallyho [417]
            Exception Type:  EXC_CRASH (SIGABRT)
            Crashed Thread:  2

            X86 Thread State (32-bit):
              eax: 0x00000000  ebx: 0x9a0d3c4e  ecx: 0xbfffe67c  edx: 0x9a0d40c6
            """
        )
        #expect(result.report.crashedThread == 2)
        let thread = try #require(result.report.threads.first)
        #expect(thread.index == 2)
        #expect(thread.crashed)
        #expect(thread.registerFlavor == "X86 Thread State (32-bit)")
        #expect(thread.registers?.count == 4)
    }

    // MARK: - Exception codes with an address

    /// KSCrash's and old iOS's `0x00000000 at 0x3618da1c`: the code is kept as a code, the address as the fault's.
    @Test func hexCodeAtAddress() throws {
        let result = try parse(
            """
            Process:         Crash-Tester [1271]
            Exception Type:  EXC_CRASH (SIGABRT)
            Exception Codes: 0x00000000 at 0x3618da1c
            Crashed Thread:  0
            """
        )
        let exception = try #require(result.report.exception)
        #expect(exception.codes == "0x00000000 at 0x3618da1c")
        #expect(exception.codeValues == [HexValue(0)])
        #expect(exception.faultAddress == HexValue(0x3618_da1c))
        #expect(exception.kernReturn == nil)
        let badAccess = try #require(
            try parse(
                "Process: x [1]\nException Type:  EXC_BAD_ACCESS (SIGSEGV)\nException Codes: 0x00000001 at 0x10\n"
            )
            .report.exception
        )
        #expect(badAccess.codeValues == [HexValue(1)])
        #expect(badAccess.kernReturn == "KERN_INVALID_ADDRESS")
        #expect(badAccess.faultAddress == HexValue(0x10))
    }

    /// The named form is unchanged: the name is no code value, and the address is the fault's.
    @Test func namedCodeAtAddressIsUnchanged() throws {
        let exception = try #require(
            try parse(
                "Process: x [1]\nException Type:  EXC_BAD_ACCESS (SIGSEGV)\nException Codes: KERN_INVALID_ADDRESS at 0x8\n"
            ).report.exception
        )
        #expect(exception.codeValues == nil)
        #expect(exception.kernReturn == "KERN_INVALID_ADDRESS")
        #expect(exception.faultAddress == HexValue(8))
    }

    // MARK: - Application Specific Information

    /// The first line is trimmed; later lines keep their indentation, so a dictionary or a backtrace keeps its shape.
    @Test func applicationSpecificInformationKeepsIndentation() throws {
        let result = try parse(
            """
            Process:         Harbor [4187]
            Exception Type:  EXC_CRASH (SIGABRT)
            Crashed Thread:  0

            Application Specific Information:
              *** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'not handled.
            Change: {
                kind = 1;
            \tnew = 2;   
            }'

            Thread 0 Crashed:
            0   libsystem_kernel.dylib        \t0x00000001ba6a6e3c __pthread_kill + 8
            """
        )
        #expect(
            result.report.applicationSpecificInformation == [
                "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: 'not handled.",
                "Change: {",
                "    kind = 1;",
                "\tnew = 2;",
                "}'",
            ]
        )
    }

    /// A report pasted indented: the heading's own indentation is not the text's.
    @Test func indentedPasteKeepsOnlyTheTextsIndentation() throws {
        let result = try parse(
            """
                Process:         Harbor [4187]
                Exception Type:  EXC_CRASH (SIGABRT)

                Application Specific Information:
                abort() called
                  detail one
                detail two

                Thread 0 Crashed:
                0   libsystem_kernel.dylib        \t0x00000001ba6a6e3c __pthread_kill + 8
            """
        )
        #expect(result.report.applicationSpecificInformation == ["abort() called", "  detail one", "detail two"])
    }

    // MARK: - Text after EOF

    /// Only KSCrash's extras are read after `EOF`: other text there (a second report pasted after) is not.
    @Test func onlyExtrasAreReadAfterEOF() throws {
        let other = try parse(
            """
            Process:         Harbor [4187]
            Exception Type:  EXC_CRASH (SIGABRT)

            Binary Images:
            0x100a48000 - 0x100b5ffff Harbor arm64  <4c7d2e91b05a3f68a1d9e0c3b7f24a15> /private/var/Harbor.app/Harbor

            EOF

            Process:         Other [1]
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
            """
        )
        #expect(other.report.process == "Harbor")
        #expect(other.report.exception?.type == "EXC_CRASH")
        let extras = try parse(
            """
            Process:         Harbor [4187]
            Exception Type:  EXC_CRASH (SIGABRT)

            Binary Images:
            0x100a48000 - 0x100b5ffff Harbor arm64  <4c7d2e91b05a3f68a1d9e0c3b7f24a15> /private/var/Harbor.app/Harbor

            EOF


            Extra Information:

            CrashDoctor Diagnosis: Application threw exception NSRangeException: index 4 beyond bounds [0 .. 2]
            """
        )
        #expect(
            extras.report.blocks.first { $0.title == "CrashDoctor Diagnosis" }?.lines == [
                "Application threw exception NSRangeException: index 4 beyond bounds [0 .. 2]"
            ]
        )
        #expect(!extras.diagnostics.contains { $0.code == .crashCutShort })
    }
}
