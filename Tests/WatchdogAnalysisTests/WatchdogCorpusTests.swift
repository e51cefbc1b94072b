import APMInspectCore
import CrashReportParsing
import Foundation
import Testing

@testable import WatchdogAnalysis

/// Every shape of watchdog report in Corpus/watchdog, with the facts a person reading it would take away.
@Suite struct WatchdogCorpusTests {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus/watchdog")

    private func analyze(_ name: String) throws -> (CrashReport, WatchdogTermination) {
        let bytes = try FileReading.contents(atPath: Self.folder.appendingPathComponent(name).path)
        let report = try CrashReportParser().parse(bytes).report
        let watchdog = try #require(WatchdogDetector.analyze(report), "no watchdog found in \(name)")
        return (report, watchdog)
    }

    @Test func iOS16JSONSceneUpdateWithSynchronousNetworking() throws {
        let (_, watchdog) = try analyze("ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips")
        #expect(watchdog.kind == .watchdogTimeout)
        #expect(watchdog.code == HexValue(0x8bad_f00d))
        #expect(watchdog.codeName == "ate bad food")
        #expect(watchdog.namespace == "FRONTBOARD")
        #expect(watchdog.domain == 10)
        #expect(watchdog.domainName == "SPRINGBOARD")
        #expect(watchdog.event == "scene-update")
        #expect(watchdog.processVisibility == "Foreground")
        #expect(watchdog.allowanceSeconds == 10)
        #expect(watchdog.allowanceKind == "real (wall clock)")
        #expect(watchdog.bundleId == "com.example.pixelia")
        #expect(watchdog.pid == 64385)
        #expect(
            watchdog.cpu
                == .init(
                    totalSeconds: 20.19,
                    userSeconds: 20.19,
                    systemSeconds: 0,
                    totalPercent: 34,
                    appSeconds: 0.286,
                    appPercent: 0
                )
        )
        #expect(watchdog.flags == ["GENERATE_CRASH_REPORT", "FROM_USERSPACE"])
        #expect(watchdog.reportType == "CrashLog")
        #expect(watchdog.maxTerminationResistance == "Interactive")
        let diagnosis = try #require(watchdog.diagnosis)
        #expect(diagnosis.verdict == .synchronousNetworking)
        #expect(diagnosis.confidence == .high)
        #expect(diagnosis.evidenceFrames.contains { $0.contains("ProfileLoader.loadSynchronously") })
    }

    @Test func iOS13TextSceneCreateBlockedOnSemaphore() throws {
        let (report, watchdog) = try analyze("ios13.6_text_springboard_scene-create_8badf00d_semaphore.crash")
        #expect(report.termination?.namespace == "SPRINGBOARD")
        #expect(watchdog.code == HexValue(0x8bad_f00d))
        #expect(watchdog.event == "scene-create")
        #expect(watchdog.allowanceSeconds == 19.97)
        #expect(watchdog.bundleId == "com.example.harbor")
        #expect(watchdog.pid == 13610)
        #expect(watchdog.cpu?.appSeconds == 0.104)
        #expect(watchdog.cpu?.totalPercent == 21)
        #expect(watchdog.diagnosis?.verdict == .waitingOnLock)
        #expect(watchdog.diagnosis?.confidence == .high)
        #expect(watchdog.diagnosis?.evidenceFrames.last == "Harbor SessionStore.waitForToken()")
    }

    @Test func legacy00000020WithApplicationSpecificInformation() throws {
        let (report, watchdog) = try analyze("ios8.4_text_00000020_8badf00d_scene-create_legacy.crash")
        #expect(report.exception?.type == "00000020")
        #expect(watchdog.code == HexValue(0x8bad_f00d))
        #expect(watchdog.event == "scene-create")
        #expect(watchdog.elapsedSeconds == 19.81)
        #expect(watchdog.allowanceSeconds == 20)
        #expect(watchdog.bundleId == "com.example.trailhead")
        #expect(watchdog.cpu?.appPercent == 17)
        #expect(watchdog.diagnosis?.verdict == .busyInAppCode)
        #expect(watchdog.diagnosis?.confidence == .high)
        #expect(watchdog.diagnosis?.reasons.contains { $0.contains("6.87 s (35 % of the 19.81 s window)") } == true)
    }

    @Test func iOS11BareBundleIdAndDatabaseIO() throws {
        let (_, watchdog) = try analyze("ios11.2_text_springboard_scene-update_bare_bundle_id.crash")
        #expect(watchdog.bundleId == "com.example.ledgerly")
        #expect(watchdog.pid == 8821)
        #expect(watchdog.event == "scene-update")
        #expect(watchdog.cpu?.appSeconds == 6.371)
        #expect(watchdog.diagnosis?.verdict == .synchronousFileOrDatabaseIO)
        #expect(watchdog.diagnosis?.evidenceFrames.last == "Ledgerly LedgerStore.allEntries()")
    }

    @Test func processExitWithAppUUIDAndThermalInfo() throws {
        let (_, watchdog) = try analyze("ios17.2_309_runningboard_process-exit_app_uuid_thermal.ips")
        #expect(watchdog.event == "process-exit")
        #expect(watchdog.allowanceSeconds == 5)
        #expect(watchdog.bundleId == "com.example.cadence")
        #expect(watchdog.bundleInstanceUUID == "4C1F0E2D-3A5B-4C7D-9E8F-1A2B3C4D5E6F")
        #expect(watchdog.pid == 40401)
        #expect(watchdog.domain == 15)
        #expect(watchdog.domainName == "RUNNINGBOARD")
        #expect(watchdog.thermal == .init(level: 0, state: "nominal"))
        #expect(watchdog.processVisibility == "Unknown")
        #expect(watchdog.maxTerminationResistance == "NonInteractive")
        #expect(watchdog.diagnosis?.verdict == .busyInAppCode)
        #expect(watchdog.diagnosis?.confidence == .high)
    }

    @Test func deadlockCodeIsNamedNotCalledATimeout() throws {
        let (_, watchdog) = try analyze("ios16.4_309_runningboard_dead10cc_no_reasons.ips")
        #expect(watchdog.kind == .fileLockHeldInBackground)
        #expect(watchdog.code == HexValue(0xdead_10cc))
        #expect(watchdog.codeName == "dead lock")
        #expect(watchdog.diagnosis == nil)
    }

    @Test func thermalKill() throws {
        let (_, watchdog) = try analyze("ios14.7_text_runningboard_c00010ff_thermal.crash")
        #expect(watchdog.kind == .thermal)
        #expect(watchdog.namespace == "RUNNINGBOARD")
        #expect(watchdog.meaning?.contains("thermal") == true)
    }

    @Test func ordinaryCrashesAreNotWatchdogs() throws {
        let text =
            "Process: A [1]\nException Type: EXC_BAD_ACCESS (SIGSEGV)\nTermination Reason: Namespace SIGNAL, Code 0xb\n"
        let report = try CrashReportParser().parse(Array(text.utf8)).report
        #expect(WatchdogDetector.analyze(report) == nil)
    }

    @Test func flagNames() {
        #expect(TerminationCode.flagNames(6) == ["GENERATE_CRASH_REPORT", "FROM_USERSPACE"])
        #expect(TerminationCode.flagNames(0x41) == ["NO_CRASH_REPORT", "0x40"])
    }
}
