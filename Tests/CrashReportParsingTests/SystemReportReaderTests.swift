import APMInspectCore
import Foundation
import Testing

@testable import CrashReportParsing

/// The system watchdog (409) and resource report (145, 202, 206) readers, on reports built here.
@Suite struct SystemReportReaderTests {
    // MARK: - Builders

    static func header(_ bugType: String, name: String = "compositord") -> String {
        #"{"bug_type":"\#(bugType)","name":"\#(name)","timestamp":"2026-03-11 09:41:07.00 +0100","#
            + #""os_version":"macOS 26.4 (25E5207k)","incident_id":"3F6A2C10-7B1D-4E2A-9C55-0D8E61B4A7F2"}"#
    }

    /// A 409 body: `pid` and `build` as given (nil leaves the key out), the watched process and launchd.
    static func watchdog(
        pid: String? = "352",
        build: String? = "macOS 26.4 (25E5207k)",
        frames: String = "[[1, 3604], [0, 822164]]",
        images: String? = #"[{"uuid":"8c41d2e0-5a7f-3b19-a6e4-20f5c9d3b871","base":4297064448,"name":"compositord"},"#
            + #"{"uuid":"1b9e7f43-c2d8-3a05-8e61-7d4a0c52f916","base":6442450944,"name":"libsystem_kernel.dylib"}]"#,
        termination: String =
            #"{"namespace":"WATCHDOG","code":1,"indicator":"monitoring timed out for service","details":["a","b"]}"#
    ) -> String {
        var members: [String] = []
        if let build { members.append(#""build":"\#(build)""#) }
        if let pid { members.append(#""pid":\#(pid)"#) }
        members.append(#""procName":"compositord""#)
        members.append(#""termination":\#(termination)"#)
        if let images { members.append(#""binaryImages":\#(images)"#) }
        members.append(
            #""stackshot":{"processByPid":{"1":{"pid":1,"procname":"launchd","threadById":{"101":{"id":101,"#
                + #""userFrames":[[1,3604]]}}},"352":{"pid":352,"procname":"compositord","threadById":{"#
                + #""4438":{"id":4438,"name":"render","userFrames":[[0,1204388]]},"#
                + #""4410":{"id":4410,"name":"com.apple.main-thread","state":["TH_WAIT"],"userFrames":\#(frames)}}}}}"#
        )
        return header("409") + "\n{" + members.joined(separator: ",") + "}\n"
    }

    static func resource(
        bugType: String,
        event: String,
        action: String,
        lines: [String],
        stack: [String] = [
            "  18  ??? (libsystem_pthread.dylib + 7012) [0x1a93bdb64]", "  17  ??? (Nightjar + 1280412) [0x1007a899c]",
        ]
    ) -> String {
        var text = header(bugType, name: "Nightjar") + "\n"
        text += "OS Version:       iPhone OS 26.2 (Build 23C55)\nCommand:          Nightjar\nPID:              2911\n\n"
        text += "Event:            \(event)\nAction taken:     \(action)\n"
        text += lines.map { $0 + "\n" }.joined()
        text += "\nHardware model:   iPhone16,2\n\nHeaviest stack for the target process:\n"
        text += stack.map { $0 + "\n" }.joined()
        return text + "\nPowerstats for:   Nightjar [2911]\n  99  ??? (Other + 1) [0x1]\n"
    }

    static let cpuLines = [
        "CPU:              48 seconds cpu time over 60 seconds (80% cpu average), exceeding limit of 80% cpu over 60 seconds",
        "CPU limit:        48s", "Limit duration:   60s", "CPU used:         48s", "CPU duration:     60s",
        "Duration:         60.47s", "Duration Sampled: 58.91s", "Steps:            12",
    ]

    static func container(_ text: String) -> IPSContainer { IPSContainer(bytes: Array(text.utf8)) }

    // MARK: - 409

    @Test func readsTheWatchdogWithPidAndBuild() throws {
        let (report, _) = try SystemWatchdogReader().parse(Self.container(Self.watchdog()))
        #expect(report.bugTypeName == "SystemWatchdogCrash")
        #expect(report.pid == 352)
        #expect(report.build == "macOS 26.4 (25E5207k)")
        #expect(report.termination?.namespace == "WATCHDOG")
        #expect(report.termination?.code == 1)
        #expect(report.termination?.details == ["a", "b"])
        #expect(report.processes.count == 2)
        let watched = try #require(report.watchedProcess)
        #expect(watched.pid == 352)
        #expect(report.processes.first?.pid == 352)
        #expect(watched.threads.map(\.id) == [4410, 4438])
        let frame = try #require(watched.threads.first?.frames.first)
        #expect(frame.imageIndex == 1)
        #expect(frame.imageOffset == 3604)
        #expect(frame.image == "libsystem_kernel.dylib")
        #expect(frame.address == HexValue(6_442_450_944 + 3604))
        #expect(report.threadCount == 3)
        #expect(report.frameCount == 4)
        #expect(report.isNotACrash)
    }

    @Test func readsTheWatchdogWithPidMinusOneAndNoBuildByName() throws {
        let (report, diagnostics) = try SystemWatchdogReader().parse(
            Self.container(Self.watchdog(pid: "-1", build: nil, images: nil))
        )
        #expect(report.pid == -1)
        #expect(report.build == nil)
        #expect(report.watchedProcess?.name == "compositord")
        #expect(report.watchedProcess?.pid == 352)
        #expect(diagnostics.contains { $0.code == .watchdogUnknownPID })
        // Without an image list frames keep their index and offset, unnamed.
        let frame = try #require(report.watchedProcess?.threads.first?.frames.first)
        #expect(frame.imageIndex == 1 && frame.image == nil && frame.imageOffset == 3604)
    }

    @Test func anImageIndexPastTheListKeepsTheFrameWithoutAnImage() throws {
        let (report, diagnostics) = try SystemWatchdogReader().parse(
            Self.container(Self.watchdog(frames: "[[7, 10], [0, 20]]"))
        )
        let frames = try #require(report.watchedProcess?.threads.first?.frames)
        #expect(frames.count == 2)
        #expect(frames[0].imageIndex == 7 && frames[0].image == nil && frames[0].address == nil)
        #expect(frames[1].image == "compositord")
        #expect(diagnostics.contains { $0.code == .watchdogFrameImageOutOfRange })
    }

    @Test func negativeHugeAndMistypedFramesAreSkippedWithADiagnostic() throws {
        let frames =
            #"[[0, -16], [-1, 5], [0, 99999999999999999999999], ["a", 1], [0], 3, [0, 1.5], [1, 18446744073709551615]]"#
        let (report, diagnostics) = try SystemWatchdogReader().parse(Self.container(Self.watchdog(frames: frames)))
        let kept = try #require(report.watchedProcess?.threads.first?.frames)
        // Only the last pair is an image index and an offset; its address would overflow and is left out.
        #expect(kept.count == 1)
        #expect(kept.first?.imageOffset == UInt64.max)
        #expect(kept.first?.address == nil)
        #expect(diagnostics.contains { $0.code == .watchdogUnreadableFrame })
    }

    @Test func membersOfTheWrongTypeAreSkipped() throws {
        let text =
            Self.header("409")
            + #"\#n{"pid":"352","procName":7,"termination":[1],"reportNotes":{"a":1},"binaryImages":"x","#
            + #""stackshot":{"processByPid":[1,2]}}"#
        let (report, diagnostics) = try SystemWatchdogReader().parse(Self.container(text))
        #expect(report.pid == nil)
        #expect(report.process == "compositord")  // from the header
        #expect(report.termination == nil)
        #expect(report.processes.isEmpty)
        #expect(diagnostics.filter { $0.severity == .warning }.count >= 4)
    }

    @Test func aTruncatedWatchdogIsReadAsFarAsItGoes() throws {
        let whole = Self.watchdog()
        let cut = String(whole.prefix(whole.utf8.count * 3 / 4))
        let (report, diagnostics) = try SystemWatchdogReader().parse(Self.container(cut))
        #expect(report.pid == 352)
        #expect(!diagnostics.isEmpty)
    }

    @Test func deepNestingIsAnErrorOrAPartialReportNeverATrap() {
        let deep = String(repeating: "[", count: 100_000)
        let text = Self.header("409") + #"\#n{"pid":1,"stackshot":{"processByPid":{"1":{"threadById":"# + deep
        do {
            let (report, _) = try SystemWatchdogReader().parse(Self.container(text))
            #expect(report.frameCount == 0)
        } catch {
            #expect(error.code == .tooDeep || error.code == .syntax)
        }
    }

    @Test func aBodyThatIsNotAnObjectFails() {
        #expect(throws: InputError.self) {
            try SystemWatchdogReader().parse(Self.container(Self.header("409") + "\n[1, 2]\n"))
        }
    }

    @Test func capsThreadsAndFrames() throws {
        var reader = SystemWatchdogReader()
        reader.maxFrames = 2
        let (report, diagnostics) = try reader.parse(Self.container(Self.watchdog(frames: "[[0,1],[0,2],[0,3]]")))
        #expect(report.frameCount == 2)
        #expect(diagnostics.contains { $0.code == .watchdogFrameListTruncated })
    }

    // MARK: - 145, 202, 206

    @Test func readsACPUWarning() throws {
        let text = Self.resource(bugType: "202", event: "cpu usage", action: "none", lines: Self.cpuLines)
        let (report, _) = try ResourceReportReader().parse(Self.container(text))
        #expect(report.bugTypeName == "SymptomsCPUUsage")
        #expect(report.resource == .cpu)
        #expect(!report.isFatal)
        #expect(report.category == "resourceWarning")
        #expect(report.limit?.value == 48 && report.limit?.unit == "s")
        #expect(report.limitDurationSeconds == 60)
        #expect(report.observed?.value == 48)
        #expect(report.observedDurationSeconds == 60)
        #expect(report.durationSeconds == 60.47)
        #expect(report.durationSampledSeconds == 58.91)
        #expect(report.steps == 12)
        #expect(report.pid == 2911)
        #expect(report.process == "Nightjar")
        // The heaviest stack only: the Powerstats section's frames are not part of it.
        #expect(report.heaviestStack.count == 2)
        let frame = try #require(report.heaviestStack.last)
        #expect(frame.image == "Nightjar" && frame.imageOffset == 1_280_412 && frame.sampleCount == 17)
        #expect(frame.address == HexValue(0x1_007a_899c))
        #expect(frame.symbol == "???")
    }

    @Test func aKilledProcessMakesAFatalResourceKill() throws {
        let text = Self.resource(bugType: "206", event: "cpu usage", action: "Process killed", lines: Self.cpuLines)
        let (report, _) = try ResourceReportReader().parse(Self.container(text))
        #expect(report.isFatal)
        #expect(report.category == "resourceKill")
        #expect(report.bugTypeName == "SymptomsCPUUsageFatal")
    }

    @Test func readsDiskWritesFromTheSummaryWhenTheDetailLinesAreMissing() throws {
        let line =
            "Writes:           1073.74 MB of file backed memory dirtied over 8588 seconds, exceeding limit of 12.43 KB per second over 86400 seconds"
        let text = Self.resource(
            bugType: "145",
            event: "disk writes",
            action: "none",
            lines: [line, "Writes limit:     1073.74 MB", "Limit duration:   86400s"]
        )
        let (report, _) = try ResourceReportReader().parse(Self.container(text))
        #expect(report.resource == .diskWrites)
        #expect(report.limit == ResourceReport.Figure(value: 1073.74, unit: "MB", text: "1073.74 MB"))
        #expect(report.observed?.value == 1073.74)
        #expect(report.observedDurationSeconds == 8588)
        #expect(report.limitDurationSeconds == 86400)
    }

    @Test func hugeAndMalformedFiguresAreLeftOutNotTrapped() throws {
        let lines = [
            "CPU limit:        " + String(repeating: "9", count: 400) + "s",
            "Limit duration:   99999999999999999999999999999999999999s",
            "Steps:            99999999999999999999999", "CPU used:         -5s", "Duration:         .s",
        ]
        let stack = [
            "  99999999999999999999  ??? (A + 1) [0x1]", "  5  ??? (B + -3) [0x2]",
            "  5  ??? (C + 99999999999999999999999)",
            "  7  ??? (D + 0x10) [0xzz]", "garbage",
        ]
        let text = Self.resource(bugType: "202", event: "cpu usage", action: "none", lines: lines, stack: stack)
        let (report, diagnostics) = try ResourceReportReader().parse(Self.container(text))
        #expect(report.limit == nil)
        #expect(report.steps == nil)
        #expect(report.observed == nil)
        #expect(report.durationSeconds == nil)
        #expect(report.heaviestStack.map(\.image) == ["D"])
        #expect(report.heaviestStack.first?.imageOffset == 16)
        #expect(report.heaviestStack.first?.address == nil)
        #expect(diagnostics.contains { $0.code == .resourceUnreadableFrame })
    }

    @Test func aJSONBodyOrABodyWithoutEventOrStackFails() {
        #expect(throws: InputError.self) {
            try ResourceReportReader().parse(Self.container(Self.header("202") + "\n{\"a\": 1}\n"))
        }
        #expect(throws: InputError.self) {
            try ResourceReportReader().parse(Self.container(Self.header("202") + "\nhello\nworld\n"))
        }
    }

    @Test func withoutAHeaderTheEventDecidesTheResource() throws {
        let text = "Event:            disk writes\nAction taken:     none\nWrites limit:     2 MB\n"
        let (report, _) = try ResourceReportReader().parse(Self.container(text))
        #expect(report.bugType == nil)
        #expect(report.resource == .diskWrites)
        #expect(report.limit?.value == 2)
    }

    @Test func aTruncatedStackKeepsTheFramesBeforeTheCut() throws {
        let text = Self.resource(bugType: "202", event: "cpu usage", action: "none", lines: Self.cpuLines)
        let cut = String(text.prefix(upTo: try #require(text.range(of: "(Nightjar + 12")).upperBound))
        let (report, _) = try ResourceReportReader().parse(Self.container(cut))
        #expect(report.heaviestStack.count == 1)
        #expect(report.limit?.value == 48)
    }

    @Test func capsTheStack() throws {
        var reader = ResourceReportReader()
        reader.maxFrames = 1
        let text = Self.resource(bugType: "202", event: "cpu usage", action: "none", lines: Self.cpuLines)
        let (report, diagnostics) = try reader.parse(Self.container(text))
        #expect(report.heaviestStack.count == 1)
        #expect(diagnostics.contains { $0.code == .resourceFrameListTruncated })
    }
}
