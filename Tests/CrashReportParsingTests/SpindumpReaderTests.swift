import APMInspectCore
import ByteAccess
import Testing

@testable import CrashReportParsing

/// Spindump hang reports (macOS `.hang`/`.spin`, `.ips` hang bug_types with a spindump body) read as crash reports
/// of a hang, on reports built here.
@Suite struct SpindumpReaderTests {
    // MARK: - Builders

    static func header(
        event: String? = "hang",
        extra: String = "",
        heaviest: Bool = true
    ) -> String {
        var text = """
            Date/Time:        2025-03-04 09:12:40.210 +0100
            End time:         2025-03-04 09:12:45.730 +0100
            OS Version:       macOS 15.3.1 (Build 24D70)
            Architecture:     arm64e
            Report Version:   53

            Command:          Quayside
            Path:             /Applications/Quayside.app/Contents/MacOS/Quayside
            Identifier:       com.saltmarsh.quayside
            Version:          1.8.2 (182)
            Architecture:     arm64
            Parent:           launchd [1]
            PID:              9034

            """
        if let event { text += "Event:            \(event)\n" }
        text += "Duration:         5.52s\nSteps:            55 (100ms sampling interval)\n" + extra + "\n"
        if heaviest {
            text += """
                Heaviest stack for the main thread of the target process:
                  55  start + 2840 (dyld + 24352) [0x18a1c5f20]
                  55  main + 40 (Quayside + 16424) [0x102d04028]
                  55  __psynch_mutexwait + 8 (libsystem_kernel.dylib + 17588) [0x18a50a4b4]
                 *55  psynch_mtxcontinue + 0 (kernel + 301584) [0xfffffe0007259a10]


                """
        }
        return text
    }

    /// The hung process's part: a main thread whose tree splits (`heavy` samples in one branch, `55 - heavy` in
    /// the other), a placeholder, kernel frames, and the images.
    static func process(heavy: Int = 50, pid: Int = 9034) -> String {
        """
        Process:          Quayside [\(pid)]
        UUID:             0B7A3E52-19C4-3D86-A0F2-6C8E41D5B973
        Architecture:     arm64
        Num samples:      55 (1-55)

          Thread 0x8a11    DispatchQueue "com.apple.main-thread"(1)    55 samples (1-55)    priority 47 (base 47)
          <process frontmost, thread QoS user interactive (requested user interactive), IO tier 0>
          55  start + 2840 (dyld + 24352) [0x18a1c5f20] 1-55
            55  main + 40 (main.swift:7,3 in Quayside + 16424) [0x102d04028] 1-55
              55  <patched truncated backtrace> 1-55
                \(55 - heavy)   Ledger.render() + 12 (Ledger.swift:20,1 in Quayside + 20480) [0x102d05000] 1-\(55 - heavy)
                \(heavy)  Ledger.lock() + 64 (Ledger.swift:88,9 in Quayside + 24640) [0x102d06040] 1-\(heavy)
                  \(heavy)  __psynch_mutexwait + 8 (libsystem_kernel.dylib + 17588) [0x18a50a4b4] 1-\(heavy)
                   *\(heavy)  psynch_mtxcontinue + 0 (kernel + 301584) [0xfffffe0007259a10] 1-\(heavy)

          Thread 0x8a40    Thread name "com.saltmarsh.sync"    55 samples (1-55)    priority 31 (base 31)
          55  thread_start + 8 (libsystem_pthread.dylib + 7748) [0x18a542e44] 1-55
            55  CA::Layer::setter(unsigned int, _CAValueType, void const*) + 157 (QuartzCore + 34665) [0x19b2d4769] 1-55

          Binary Images:
                   0x102d00000 -        0x102d2ffff  com.saltmarsh.quayside 1.8.2 (182) <0B7A3E52-19C4-3D86-A0F2-6C8E41D5B973>  /Applications/Quayside.app/Contents/MacOS/Quayside
                   0x18a1c0000 -        0x18a25bfff  dyld (1231.3)                        <3F0B6E21-94A7-3C5D-B8E1-2D7A9C04F613>  /usr/lib/dyld
           *0xfffffe0007004000 - 0xfffffe00076fffff  kernel.release.t6000 (11215.81.4)   <B0C6E5D2-41F8-3A97-8E3B-F52D19A07C64>  /System/Library/Kernels/kernel.release.t6000

        """
    }

    static func parse(_ text: String) throws -> CrashParseResult {
        try CrashReportParser().parse(Array(text.utf8))
    }

    // MARK: - Recognition

    @Test func aHangSpindumpIsRecognisedAndOthersAreNot() {
        let hang = IPSContainer(bytes: Array((Self.header() + Self.process()).utf8))
        #expect(CrashReportParser.isSpindumpHangReport(hang))
        // Resource reports share the layout: a CPU or disk-write event is not a hang.
        let cpu = IPSContainer(bytes: Array(Self.header(event: "cpu usage").utf8))
        #expect(!CrashReportParser.isSpindumpHangReport(cpu))
        // Prose that names a command is not a report.
        let prose = IPSContainer(bytes: Array("Notes\nCommand: make all\nthen run it\n".utf8))
        #expect(!CrashReportParser.isSpindumpHangReport(prose))
        // A header of another bug_type (202, CPU usage) is never read as a hang, whatever its body.
        let cpuIPS = #"{"bug_type":"202","name":"Quayside"}"# + "\n" + Self.header()
        #expect(!CrashReportParser.isSpindumpHangReport(IPSContainer(bytes: Array(cpuIPS.utf8))))
        let hangIPS = #"{"bug_type":"228","name":"Quayside"}"# + "\n" + Self.header(event: nil)
        #expect(CrashReportParser.isSpindumpHangReport(IPSContainer(bytes: Array(hangIPS.utf8))))
    }

    // MARK: - Reading

    @Test func theMainThreadIsTheHeaviestPathWithoutKernelFramesOrPlaceholders() throws {
        let result = try Self.parse(Self.header() + Self.process(heavy: 50))
        let report = result.report
        #expect(report.sourceFormat == .spindump)
        #expect(report.category == .hang)
        #expect(report.isNotACrash)
        #expect(report.hang?.durationSeconds == 5.52)
        #expect(report.hang?.recovered == true)
        #expect(report.process == "Quayside" && report.pid == 9034)
        #expect(report.appVersion == "1.8.2" && report.appBuild == "182")
        #expect(report.osBuild == "24D70")
        #expect(report.parentProcess == "launchd" && report.parentPid == 1)
        #expect(report.crashedThread == 0)
        let main = try #require(report.threads.first)
        #expect(main.queue == "com.apple.main-thread")
        #expect(main.id == 0x8a11)
        #expect(main.frames.map(\.symbol) == ["__psynch_mutexwait", "Ledger.lock()", "main", "start"])
        #expect(main.frames[1].file == "Ledger.swift" && main.frames[1].line == 88 && main.frames[1].column == 9)
        #expect(main.frames[1].imageOffset == 24640 && main.frames[1].address == HexValue(0x102d0_6040))
        #expect(main.frames[1].isAppFrame == true)
        // Kernel images are left out with kernel frames; dyld's lone parenthesised version is its version.
        #expect(report.binaryImages.map(\.name) == ["Quayside", "dyld"])
        #expect(report.binaryImages[0].uuid == "0b7a3e5219c43d86a0f26c8e41d5b973")
        #expect(report.binaryImages[0].arch == "arm64")
        #expect(report.binaryImages[1].version == "1231.3")
        #expect(report.signature != nil)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func windowsLineEndingsReadTheSame() throws {
        // A report saved with `\r\n` line endings (mailed, or through a Windows machine): `\r\n` is one `Character`,
        // so a split on `Character`s never split there; lines are split on bytes.
        let text = Self.header() + Self.process(heavy: 50)
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(crlf.utf8.count > text.utf8.count)
        let plain = try Self.parse(text).report
        let windows = try Self.parse(crlf).report
        #expect(windows.sourceFormat == .spindump)
        #expect(windows.threads.map { $0.frames.map(\.symbol) } == plain.threads.map { $0.frames.map(\.symbol) })
        #expect(windows.binaryImages.map(\.name) == plain.binaryImages.map(\.name))
        #expect(windows.hang?.durationSeconds == plain.hang?.durationSeconds)
        #expect(windows.process == "Quayside")
    }

    @Test func theHeavierBranchWinsWhicheverComesFirst() throws {
        let light = try Self.parse(Self.header() + Self.process(heavy: 5)).report
        #expect(light.threads[0].frames.map(\.symbol) == ["Ledger.render()", "main", "start"])
    }

    @Test func aSymbolWithParenthesesKeepsThemAndItsImage() throws {
        let report = try Self.parse(Self.header() + Self.process()).report
        let frame = try #require(report.threads.last?.frames.first)
        #expect(frame.symbol == "CA::Layer::setter(unsigned int, _CAValueType, void const*)")
        #expect(frame.symbolOffset == 157 && frame.image == "QuartzCore" && frame.imageOffset == 34665)
        #expect(report.threads.last?.name == "com.saltmarsh.sync")
    }

    @Test func withoutTheProcessPartTheHeaviestStackIsTheMainThread() throws {
        let result = try Self.parse(Self.header() + Self.process(pid: 1))
        #expect(result.report.threads.count == 1)
        #expect(result.report.threads[0].frames.map(\.symbol) == ["__psynch_mutexwait", "main", "start"])
        #expect(result.diagnostics.map(\.code) == [.spindumpProcessNotFound, .spindumpOtherProcesses])
    }

    @Test func aForceQuitIsAHangTheAppDidNotComeBackFrom() throws {
        let report = try Self.parse(Self.header(extra: "Action taken:     Force quit\n") + Self.process()).report
        #expect(report.hang?.recovered == false)
        #expect(report.hang?.durationSeconds == 5.52)
    }

    @Test func unreadLinesAreCountedWithTheFirstLocation() throws {
        let text = Self.header() + Self.process().replacingOccurrences(of: "<patched truncated backtrace>", with: "")
        let result = try Self.parse(text)
        let unread = try #require(result.diagnostics.first { $0.code == .spindumpUnreadLines })
        #expect(unread.message.hasPrefix("1 line(s)"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let emptied = try #require(lines.firstIndex { $0.hasSuffix("55   1-55") })
        #expect(unread.location?.line == emptied + 1)
    }

    // MARK: - Hostile input

    @Test func aCallTreeStopsAtItsLimitAndKeepsTheHeaviestOfWhatItRead() {
        var tree = SpindumpCallTree(maxNodes: 3)
        for (count, indent) in [(9, 2), (9, 4), (4, 6), (5, 6), (1, 8)] {
            tree.add(SpindumpLine.Frame(count: count, indent: indent, isKernel: false, isPlaceholder: false))
        }
        #expect(tree.skipped == 2)
        #expect(tree.heaviestPath().map(\.count) == [9, 9, 4])
    }

    @Test func frameLinesOfEveryShapeAndNoise() {
        let bare = onBytes("  16  start_wqthread + 15 (libsystem_pthread.dylib)", SpindumpLine.frame)
        #expect(bare?.image == "libsystem_pthread.dylib" && bare?.imageOffset == nil && bare?.symbolOffset == 15)
        let unknown = onBytes("    49  ??? (airportd + 490548) [0x1030c3c34] 1-49", SpindumpLine.frame)
        #expect(unknown?.symbol == nil && unknown?.imageOffset == 490548 && unknown?.address == 0x1_030c_3c34)
        let hex = onBytes("  3  f + 1 (App + 0x40) [0x1000]", SpindumpLine.frame)
        #expect(hex?.imageOffset == 0x40)
        for noise in [
            "", "   ", "49", "49 ", "  49  )(", "  49  name (", "  99999999999999999999  f (A + 1)", "  -3  f (A + 1)",
            "  4  f ( + 1) [0x10]", "  4  f (A + 1) [0xZZ", "Thread 0x", "  *", "**12 x",
        ] {
            let frame = onBytes(noise, SpindumpLine.frame)
            #expect(frame == nil || frame?.image?.isEmpty == false, "\(noise)")
        }
        #expect(
            onBytes("   0x10 - ", SpindumpLine.image) == nil
                || onBytes("   0x10 - ", SpindumpLine.image)?.identifier.isEmpty == false
        )
        #expect(onBytes("0xZZ - 0x20  x <u> /p", SpindumpLine.image) == nil)
        #expect(onBytes("  Thread 0x", SpindumpLine.threadHeading) != nil)
    }

    @Test func framesAndImagesKeepTextBeyondASCII() {
        let frame = onBytes(
            "  7  Ordre.défiler(_:) + 12 (Café.swift:31,5 in Crème + 0x2a) [0x1000a] 1-7",
            SpindumpLine.frame
        )
        #expect(frame?.symbol == "Ordre.défiler(_:)" && frame?.symbolOffset == 12)
        #expect(frame?.file == "Café.swift" && frame?.line == 31 && frame?.column == 5)
        #expect(frame?.image == "Crème" && frame?.imageOffset == 0x2a && frame?.address == 0x1_000a)
        let image = onBytes(
            "  0x100 - 0x1ff  fr.café.Crème 2.1 (21)  <0d2c4a1e-0000-4000-8000-00000000abcd>  /Applications/Crème.app/Crème",
            SpindumpLine.image
        )
        #expect(image?.identifier == "fr.café.Crème" && image?.version == "2.1 (21)")
        #expect(image?.path == "/Applications/Crème.app/Crème" && image?.end == 0x1ff)
        let heading = onBytes(
            #"Thread 0x2ca9e    DispatchQueue "file d’attente"(3)    Thread name "É""#,
            SpindumpLine.threadHeading
        )
        #expect(heading?.id == 0x2_ca9e && heading?.queue == "file d’attente" && heading?.name == "É")
    }

    @Test func truncatedReportsGivePartialReportsNotErrors() throws {
        let full = Self.header() + Self.process()
        let bytes = Array(full.utf8)
        // Every cut point past the fields that make the report a hang.
        let start = try #require(
            full.utf8.firstIndex(of: UInt8(ascii: "E")).map { full.utf8.distance(from: full.utf8.startIndex, to: $0) }
        )
        for cut in stride(from: start + 400, to: bytes.count, by: 37) {
            let container = IPSContainer(bytes: Array(bytes[..<cut]))
            guard CrashReportParser.isSpindumpHangReport(container) else { continue }
            let result = try CrashReportParser().parse(container)
            #expect(result.report.category == .hang)
        }
    }
}

/// A line's reader run on the line's bytes, as the reader runs it.
private func onBytes<Result>(_ line: String, _ read: (TextBytes) -> Result) -> Result {
    var text = line
    return text.withBorrowedUTF8 { read(TextBytes($0)) }
}
