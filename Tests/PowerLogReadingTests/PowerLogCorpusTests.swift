import APMInspectCore
import Foundation
import Testing

@testable import PowerLogReading

/// Expected results for the generated corpus, worked out by hand in Corpus/powerlog/README.md.
@Suite struct PowerLogCorpusTests {
    static let t0 = 1_699_142_400.0
    static let hour = 3600.0

    @Test func iOS15DeviceBuildAndTables() throws {
        let result = try PowerLogReader().read(path: CorpusSupport.ios15)
        let report = result.report
        #expect(report.device == "D16AP")
        #expect(report.osBuild == "19H12")
        #expect(report.loggingMode == "Full")
        #expect(report.storageVersion == "1.08")
        #expect(report.timeZone == "America/Toronto")
        #expect(report.tables.count == 16)
        #expect(report.tables.first { $0.name == "PLBatteryAgent_EventBackward_Battery" }?.rows == 145)
        #expect(report.tables.first { $0.name == "PLBatteryAgent_EventBackward_Battery" }?.entryType == "EventBackward")
        #expect(report.sources.map(\.format) == ["sqlite"])
        #expect(!result.diagnostics.contains { $0.severity >= .warning })
    }

    @Test func iOS15TimeRangeAppliesTheOffsetOfEachRow() throws {
        let report = try PowerLogReader().read(path: CorpusSupport.ios15).report
        let range = try #require(report.timeRange)
        #expect(range.start.raw == Self.t0)
        #expect(range.start.clockOffset == -400)
        #expect(range.end.raw == Self.t0 + 12 * Self.hour)
        #expect(range.end.clockOffset == -700)
        // Before the DST change the zone is -04:00, after it -05:00 (from the IANA name, not the stored seconds).
        #expect(range.start.wallClock?.iso8601 == "2023-11-04T19:53:20.000-04:00")
        #expect(range.end.wallClock?.iso8601 == "2023-11-05T06:48:20.000-05:00")
        #expect(report.timeOffsets.map(\.systemSeconds) == [-400, -700])
    }

    @Test func iOS15EnergyRankingAndComponents() throws {
        let report = try PowerLogReader().read(path: CorpusSupport.ios15).report
        let energy = try #require(report.energy)
        #expect(energy.source == "PLAccountingOperator_Aggregate_RootNodeEnergy")
        #expect(energy.unit == "PowerLog energy units")
        #expect(energy.hourlyBuckets == 12)
        #expect(energy.dailyBucketsUsed == 1)
        #expect(energy.total == 8326)
        #expect(report.apps.map(\.name) == ["com.example.maps", "com.example.chat", "backboardd", "WiFi-Idle"])
        #expect(report.apps.map(\.energy) == [7200, 706, 360, 60])
        #expect(report.apps.map(\.kind) == [.app, .app, .process, .system])
        #expect(report.apps.map(\.displayName) == ["Maps Example", "Chat", nil, nil])
        let maps = try #require(report.apps.first)
        #expect(maps.components == ["cpu": 6200, "display": 400, "location": 600])
        #expect(maps.sources == ["CPU": 6200, "Display": 400, "GPS": 600])
        #expect(abs(maps.share - 7200.0 / 8326.0) < 1e-12)
        let chat = report.apps[1]
        #expect(chat.components == ["cpu": 486, "wifi": 120, "cellular": 100])
        let components = Dictionary(uniqueKeysWithValues: energy.components.map { ($0.component, $0.energy) })
        #expect(components == [.cpu: 6686, .display: 400, .location: 600, .wifi: 180, .cellular: 100, .soc: 360])
        #expect(energy.buckets.count == 13)
        let third = energy.buckets[3]
        #expect(third.start.raw == Self.t0 + 2 * Self.hour + 345)
        let expectedTotal: Double = 460.5
        #expect(third.total == expectedTotal)
        #expect(third.consumers.first?.name == "com.example.maps")
        #expect(
            third.components == ["cpu": 140.5, "location": 50, "display": 200, "wifi": 15, "cellular": 25, "soc": 30]
        )
    }

    @Test func iOS15BatterySessionsAndDrain() throws {
        let battery = try #require(try PowerLogReader().read(path: CorpusSupport.ios15).report.battery)
        #expect(battery.source == "PLBatteryAgent_EventBackward_Battery")
        #expect(battery.samples.count == 145)
        #expect(battery.cycleCount == 412)
        #expect(battery.designCapacityMAh == 3227)
        #expect(battery.maxCapacityMAh == 2950)
        // The first sample's Temperature is written in centi-degrees.
        #expect(battery.samples.first?.temperatureCelsius == 29.5)
        #expect(battery.sessions.map(\.kind) == [.charging, .discharging])
        #expect(battery.sessions.map(\.startLevel) == [40, 80])
        #expect(battery.sessions.map(\.endLevel) == [80, 52])
        #expect(battery.sessions.first?.durationSeconds == 2 * Self.hour)
        let on = try #require(battery.drain.screenOn)
        let off = try #require(battery.drain.screenOff)
        #expect(abs(on.percentPerHour - 10) < 1e-9)
        // 2:05 to 4:00: the 2:00 sample is the last one on the charger.
        #expect(on.seconds == 23 * 300)
        #expect(abs(off.percentPerHour - 1) < 1e-9)
        // The pair across the clock correction has no wall-clock duration and is left out.
        #expect(off.seconds == 95 * 300)
        #expect(battery.drain.screenUnknown == nil)
    }

    @Test func iOS15AppRunTimeBackgroundLocationExitsCoalitionsScreen() throws {
        let report = try PowerLogReader().read(path: CorpusSupport.ios15).report
        let maps = try #require(report.appRunTime.first { $0.bundleID == "com.example.maps" })
        #expect(maps.displayName == "Maps Example")
        #expect(maps.foregroundSeconds == 3600)
        #expect(maps.backgroundSeconds == 4800)
        #expect(maps.backgroundLocationSeconds == 4800)
        #expect(report.appRunTime.first { $0.bundleID == "com.example.chat" }?.backgroundSeconds == 1440)
        #expect(report.backgroundLocation.count == 8)
        #expect(Set(report.backgroundLocation.map(\.app)) == ["com.example.maps"])
        #expect(report.backgroundLocation.first?.start.raw == Self.t0 + 4 * Self.hour + 345)
        #expect(report.backgroundLocation.first?.seconds == 600)

        #expect(report.processExits.map(\.reason.category) == [.jetsam, .watchdog, .crash])
        #expect(report.processExits.map(\.reason.codeName) == ["per-process-limit", "watchdog timeout", "SIGSEGV"])
        #expect(report.processExits.map(\.reason.namespaceName) == ["JETSAM", "SPRINGBOARD", "SIGNAL"])
        #expect(report.processExits[1].reason.code == "0x8badf00d")
        #expect(report.processExits.first?.pid == 412)

        #expect(report.coalitions.map(\.name) == ["com.example.maps", "com.apple.backboardd"])
        #expect(report.coalitions.first?.cpuSeconds == 360)
        #expect(report.coalitions.first?.bytesRead == 12 * 1_048_576)
        #expect(report.coalitions.first?.seconds == 12 * Self.hour)

        let screen = try #require(report.screen)
        #expect(screen.changes.map(\.isOn) == [true, false, true, false])
        #expect(screen.onSeconds == 1500 + 2 * Self.hour)
    }

    @Test func gzipCopyReadsTheSameAsTheDatabase() throws {
        let plain = try PowerLogReader().read(path: CorpusSupport.ios15).report
        var compressed = try PowerLogReader().read(path: CorpusSupport.ios15Gzip).report
        #expect(compressed.sources.map(\.format) == ["gzip"])
        compressed.sources = plain.sources
        #expect(compressed == plain)
    }

    @Test func gzipTemporaryFileIsRemoved() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let reader = PowerLogReader(options: PowerLogReadOptions(temporaryDirectory: folder))
        _ = try reader.read(path: CorpusSupport.ios15Gzip)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func rotatedFilesMergeIntoOneHistoryWithOverlapCountedOnce() throws {
        let single = try PowerLogReader().read(path: CorpusSupport.ios15).report
        let merged = try PowerLogReader().read(paths: CorpusSupport.rotated).report
        #expect(merged.sources.count == 2)
        #expect(merged.timeRange == single.timeRange)
        #expect(merged.apps == single.apps)
        #expect(merged.energy == single.energy)
        #expect(merged.battery == single.battery)
        #expect(merged.processExits == single.processExits)
        #expect(merged.appRunTime == single.appRunTime)
        #expect(merged.timeOffsets == single.timeOffsets)
    }

    @Test func sysdiagnoseArchiveIsReadStraightFromTheTarGz() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(PowerLogReader.isArchive(CorpusSupport.sysdiagnose))
        #expect(!PowerLogReader.isArchive(CorpusSupport.ios15Gzip))
        let reader = PowerLogReader(options: PowerLogReadOptions(temporaryDirectory: folder))
        let archived = try reader.read(paths: [CorpusSupport.sysdiagnose]).report
        let merged = try PowerLogReader().read(paths: CorpusSupport.rotated).report
        #expect(
            archived.sources.map(\.path) == [
                CorpusSupport.sysdiagnose
                    + "!/sysdiagnose_2023.11.05_07-00-00-0500_iPhone-OS_iPhone_19H12/logs/powerlogs/"
                    + "powerlog_2023-11-05_07-00_1A2B3C4D.PLSQL",
                CorpusSupport.sysdiagnose
                    + "!/sysdiagnose_2023.11.05_07-00-00-0500_iPhone-OS_iPhone_19H12/logs/powerlogs/"
                    + "powerlog_2023-11-05_12-00_5E6F7A8B.PLSQL.gz",
            ]
        )
        #expect(archived.apps == merged.apps)
        #expect(archived.battery == merged.battery)
        #expect(archived.timeRange == merged.timeRange)
        // The extracted copies are gone once the read returns.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func iOS8BLMTableGivesRankingComponentsAndBackgroundLocation() throws {
        let result = try PowerLogReader().read(path: CorpusSupport.ios8)
        let report = result.report
        #expect(report.device == "N51AP")
        #expect(report.osBuild == "12B411")
        let energy = try #require(report.energy)
        #expect(energy.source == "PLBLMAccountingService_Aggregate_BLMAppEnergyBreakdown")
        #expect(energy.total == 3280)
        #expect(energy.hourlyBuckets == 6)
        #expect(report.apps.map(\.name) == ["com.example.runner", "com.apple.mobilesafari", "com.example.podcasts"])
        #expect(report.apps.map(\.energy) == [1800, 1000, 480])
        let runner = report.apps[0]
        #expect(runner.components == ["cpu": 600, "location": 900, "display": 300])
        #expect(runner.backgroundLocation == 360)
        #expect(runner.backgroundCPU == 120)
        let podcasts = report.apps[2]
        #expect(podcasts.components["daemons"] == 90)
        #expect(podcasts.sources["BLMEnergyPA_mediaserverd"] == 90)

        // SELECT BLMAppName, timestamp FROM … WHERE BLMEnergy_BackgroundLocation > 0 ORDER BY timestamp
        #expect(
            energy.buckets[1].components == [
                "cpu": 300, "location": 150, "display": 300, "wifi": 50, "audio": 60,
                "cellular": 20, "daemons": 15,
            ]
        )
        let uses = report.backgroundLocation
        #expect(uses.map(\.app) == Array(repeating: "com.example.runner", count: 3))
        #expect(uses.map(\.start.raw) == [1_416_003_600, 1_416_007_200, 1_416_010_800])
        #expect(uses.map(\.energy) == [120, 120, 120])
        #expect(uses.first?.start.wallClock?.iso8601 == "2014-11-14T22:18:51.000+00:00")

        let battery = try #require(report.battery)
        #expect(battery.sessions.map(\.kind) == [.discharging])
        #expect(battery.drain.screenOn == nil)
        let unknown = try #require(battery.drain.screenUnknown)
        #expect(abs(unknown.percentPerHour - 2) < 1e-9)
        #expect(report.screen == nil)
        // No time-zone table: wall clock shown in UTC, and no warning about offsets (the table exists).
        #expect(!result.diagnostics.contains { $0.severity >= .warning })
    }
}
