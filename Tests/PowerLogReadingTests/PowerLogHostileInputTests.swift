import APMInspectCore
import Foundation
import GRDB
import Testing

@testable import PowerLogReading

/// Databases written by the tests themselves: odd schemas, hostile values, WAL files, broken compression.
@Suite struct PowerLogHostileInputTests {
    /// Writes a database at `folder/name` with `sql` and returns its path.
    private func database(_ folder: String, _ name: String, _ sql: String) throws -> String {
        let path = folder + "/" + name
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        return path
    }

    private static let offsetTable = """
        CREATE TABLE 'PLStorageOperator_EventForward_TimeOffset' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
          'timestamp' REAL, 'baseband' REAL, 'kernel' REAL, 'system' REAL);
        INSERT INTO PLStorageOperator_EventForward_TimeOffset (timestamp, system) VALUES (1000000100, -60), (1000003600, 30);
        """

    @Test func textFileIsNotSQLite() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/notes.PLSQL"
        try "not a database".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: PowerLogError.self) { try PowerLogReader().read(path: path) }
        do {
            _ = try PowerLogReader().read(path: path)
        } catch {
            #expect(error.code == .notSQLite)
        }
    }

    @Test func sqliteWithoutPowerLogTablesIsRejected() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try database(folder, "apps.sqlitedb", "CREATE TABLE updates (id INTEGER, name TEXT)")
        do {
            _ = try PowerLogReader().read(path: path)
            Issue.record("an unrelated database was read as PowerLog")
        } catch {
            #expect(error.code == .notPowerLog)
        }
    }

    @Test func clockUsesTheOffsetInEffectAtEachRow() {
        let clock = PowerLogClock(
            offsets: [.init(raw: 2000, system: 30), .init(raw: 1000, system: -60)],
            zones: [.init(raw: 0, name: nil, secondsFromGMT: 3600)]
        )
        #expect(clock.offset(at: 500) == -60)  // before the first row: the first row's offset
        #expect(clock.offset(at: 1000) == -60)
        #expect(clock.offset(at: 1999.9) == -60)
        #expect(clock.offset(at: 2000) == 30)
        let time = clock.time(1_000_000_000)
        #expect(time.utcSeconds == 1_000_000_030)
        #expect(time.wallClock?.iso8601 == "2001-09-09T02:47:10.000+01:00")
    }

    @Test func zoneNamesFromTheFileAreCheckedBeforeTheZoneDatabaseIsAsked() {
        #expect(PowerLogClock.isZoneName("America/Toronto"))
        #expect(PowerLogClock.isZoneName("Etc/GMT+5"))
        #expect(!PowerLogClock.isZoneName("../../etc/passwd"))
        #expect(!PowerLogClock.isZoneName("/etc/localtime"))
        #expect(!PowerLogClock.isZoneName(""))
        let clock = PowerLogClock(offsets: [], zones: [.init(raw: 0, name: "../../etc/passwd", secondsFromGMT: -3600)])
        #expect(clock.time(1_000_000_000).wallClock?.iso8601 == "2001-09-09T00:46:40.000-01:00")
    }

    @Test func hostileValuesNeverTrapAndAreReported() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try database(
            folder,
            "hostile.PLSQL",
            Self.offsetTable + """
                CREATE TABLE 'PLAccountingOperator_EventNone_Nodes' ('ID' INTEGER PRIMARY KEY, 'timestamp' REAL,
                  'IsPermanent' INTEGER, 'Name' TEXT);
                INSERT INTO PLAccountingOperator_EventNone_Nodes VALUES (2, 0, 1, 'CPU'), (10500, 0, 0, 'com.x.app');
                CREATE TABLE 'PLAccountingOperator_Aggregate_RootNodeEnergy' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
                  'timestamp' REAL, 'timeInterval' REAL, 'Energy' INTEGER, 'NodeID' INTEGER, 'RootNodeID' INTEGER);
                INSERT INTO PLAccountingOperator_Aggregate_RootNodeEnergy (timestamp, timeInterval, Energy, NodeID, RootNodeID)
                  VALUES (1e308, 3600, 5, 10500, 2), (-1e308, 3600, 7, 10500, 2), (1000000000, 3600, 'abc', 10500, 2),
                         (1000000000, 3600, 11, NULL, 2), (1000000000, 'x', X'00FF', 10500, 2),
                         (1000000000, 3600, 9.5, 10500, 99999);
                CREATE TABLE 'PLBatteryAgent_EventBackward_Battery' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
                  'timestamp' REAL, 'Level' REAL, 'Temperature' REAL, 'Voltage' INTEGER);
                INSERT INTO PLBatteryAgent_EventBackward_Battery (timestamp, Level, Temperature, Voltage)
                  VALUES (1000000000, X'01', 1e300, 'high'), (1000000300, 55.5, 30, 9223372036854775807);
                CREATE TABLE 'PLProcessMonitorAgent_EventPoint_ProcessExit' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
                  'timestamp' REAL, 'PID' INTEGER, 'ReasonNamespace' INTEGER, 'ReasonCode' INTEGER);
                INSERT INTO PLProcessMonitorAgent_EventPoint_ProcessExit (timestamp, PID, ReasonNamespace, ReasonCode)
                  VALUES (1000000000, -1, 99, -1), (1000000001, 1e30, 1, 4.0);
                CREATE TABLE 'PLLocaleAgent_EventForward_TimeZone' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
                  'timestamp' REAL, 'SecondsFromGMT' INTEGER, 'TimeZoneName' TEXT);
                INSERT INTO PLLocaleAgent_EventForward_TimeZone (timestamp, SecondsFromGMT, TimeZoneName)
                  VALUES (0, -9223372036854775808, '../../etc/passwd'), (1e308, 99999999, NULL);
                CREATE VIEW 'PLFake_EventPoint_View' AS SELECT abs(-9223372036854775808) AS boom;
                CREATE TABLE 'PLWeird_EventPoint_Name''With"Quotes' ('timestamp' REAL);
                INSERT INTO "PLWeird_EventPoint_Name'With""Quotes" VALUES (1000000000);
                CREATE TRIGGER t AFTER INSERT ON PLBatteryAgent_EventBackward_Battery BEGIN SELECT abs(-9223372036854775808); END;
                """
        )
        let result = try PowerLogReader().read(path: path)
        let report = result.report
        // Three rows have a usable timestamp, energy and node: 1e308 and -1e308 (no wall clock), and 9.5 on an
        // unknown root.
        #expect(report.energy?.buckets.count == 3)
        #expect(report.apps.first?.name == "com.x.app")
        #expect(report.apps.first?.energy == 5 + 7 + 9.5 + 0)
        #expect(report.apps.first?.sources["node 99999"] == 9.5)
        #expect(report.energy?.buckets.first?.start.wallClock == nil)
        #expect(result.diagnostics.contains { $0.code == .powerlogRowsSkipped })
        let battery = try #require(report.battery)
        #expect(battery.samples.count == 1)
        #expect(battery.samples.first?.level == 55.5)
        #expect(battery.samples.first?.voltageMillivolts == 9_223_372_036_854_775_807)
        #expect(report.processExits.count == 2)
        #expect(report.processExits[0].reason.namespaceName == nil)
        #expect(report.processExits[0].reason.code == "0xffffffffffffffff")
        #expect(report.processExits[1].pid == nil)
        #expect(report.processExits[1].reason.codeName == "vm-pageshortage")
        #expect(report.tables.contains { $0.name == "PLWeird_EventPoint_Name'With\"Quotes" && $0.rows == 1 })
    }

    @Test func newerVersionedTableNamesAndMissingColumnsAreRead() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try database(
            folder,
            "versioned.PLSQL",
            Self.offsetTable + """
                CREATE TABLE 'PLBatteryAgent_EventBackward_Battery_1_2' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
                  'timestamp' REAL, 'LEVEL' REAL);
                INSERT INTO PLBatteryAgent_EventBackward_Battery_1_2 (timestamp, LEVEL) VALUES (1000000000, 70), (1000000600, 69);
                CREATE TABLE 'PLBatteryAgent_EventBackward_BatteryUI' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
                  'timestamp' REAL, 'Level' REAL);
                CREATE TABLE 'PLCoalitionAgent_EventInterval_CoalitionInterval' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
                  'timestamp' REAL, 'LaunchdName' TEXT, 'cpu_time' TEXT);
                INSERT INTO PLCoalitionAgent_EventInterval_CoalitionInterval (timestamp, LaunchdName, cpu_time)
                  VALUES (1000000000, 'com.apple.dasd', '1.25');
                """
        )
        let report = try PowerLogReader().read(path: path).report
        let battery = try #require(report.battery)
        #expect(battery.source == "PLBatteryAgent_EventBackward_Battery")
        #expect(battery.samples.map(\.level) == [70, 69])
        #expect(battery.samples.first?.voltageMillivolts == nil)
        #expect(battery.drain.screenUnknown.map { abs($0.percentPerHour - 6) < 1e-9 } == true)
        #expect(report.coalitions.first?.name == "com.apple.dasd")
        #expect(report.coalitions.first?.cpuSeconds == 1.25)
        #expect(report.coalitions.first?.bytesRead == 0)
    }

    @Test func missingOffsetTableIsAWarningAndRawTimesAreKept() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try database(
            folder,
            "nooffset.PLSQL",
            """
            CREATE TABLE 'PLBatteryAgent_EventBackward_BatteryUI' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
              'timestamp' REAL, 'IsCharging' INTEGER, 'Level' REAL);
            INSERT INTO PLBatteryAgent_EventBackward_BatteryUI (timestamp, IsCharging, Level) VALUES (1000000000, 1, 20);
            """
        )
        let result = try PowerLogReader().read(path: path)
        #expect(result.diagnostics.contains { $0.severity == .warning && $0.code == .powerlogNoTimeOffsets })
        #expect(result.report.battery?.source == "PLBatteryAgent_EventBackward_BatteryUI")
        #expect(result.report.battery?.samples.first?.at.clockOffset == 0)
        #expect(result.report.battery?.sessions.first?.kind == .charging)
        #expect(result.report.timeRange?.start.wallClock?.iso8601 == "2001-09-09T01:46:40.000+00:00")
    }

    @Test func rowsKeepRawOrderWhenAClockCorrectionStepsWallTimeBack() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try database(
            folder,
            "stepback.PLSQL",
            """
            CREATE TABLE 'PLStorageOperator_EventForward_TimeOffset' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
              'timestamp' REAL, 'system' REAL);
            INSERT INTO PLStorageOperator_EventForward_TimeOffset (timestamp, system) VALUES (1000000000, 0), (1000000010, -30);
            CREATE TABLE 'PLBatteryAgent_EventBackward_BatteryUI' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
              'timestamp' REAL, 'IsCharging' INTEGER, 'Level' REAL);
            INSERT INTO PLBatteryAgent_EventBackward_BatteryUI (timestamp, IsCharging, Level)
              VALUES (1000000015, 0, 79), (1000000005, 0, 80), (1000003615, 0, 78);
            """
        )
        let battery = try #require(try PowerLogReader().read(path: path).report.battery)
        #expect(battery.samples.map(\.level) == [80, 79, 78])
        #expect(battery.samples.map(\.at.utcSeconds) == [1_000_000_005, 999_999_985, 1_000_003_585])
        // The step back has no duration: only the second interval (one hour, 1 %) counts.
        let drain = try #require(battery.drain.screenUnknown)
        #expect(drain.seconds == 3600)
        #expect(drain.percent == 1)
    }

    @Test func batterySessionsSplitWherePowerLogStoppedSampling() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try database(
            folder,
            "gap.PLSQL",
            Self.offsetTable + """
                CREATE TABLE 'PLBatteryAgent_EventBackward_BatteryUI' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
                  'timestamp' REAL, 'IsCharging' INTEGER, 'Level' REAL);
                INSERT INTO PLBatteryAgent_EventBackward_BatteryUI (timestamp, IsCharging, Level)
                  VALUES (1000000000, 0, 90), (1000003600, 0, 88), (1000090000, 0, 60), (1000093600, 0, 59);
                """
        )
        let battery = try #require(try PowerLogReader().read(path: path).report.battery)
        // 24 hours without a sample (device off): two sessions, and the 28 % lost in the gap is not a drain rate.
        #expect(battery.sessions.map(\.kind) == [.discharging, .discharging])
        #expect(battery.sessions.map(\.startLevel) == [90, 60])
        #expect(battery.sessions.map(\.endLevel) == [88, 59])
        let drain = try #require(battery.drain.screenUnknown)
        // 3600 s + 90 s of clock correction (offset −60 → +30) for the first pair, 3600 s for the second.
        #expect(drain.seconds == 7290)
        #expect(drain.percent == 3)
    }

    @Test func rowLimitCutsATableWithAWarning() throws {
        let reader = PowerLogReader(options: PowerLogReadOptions(maxRowsPerTable: 10))
        let result = try reader.read(path: CorpusSupport.ios15)
        #expect(result.report.battery?.samples.count == 10)
        #expect(
            result.diagnostics.contains {
                $0.code == .powerlogRowLimit
                    && $0.location?.keyPath == "PLBatteryAgent_EventBackward_Battery"
            }
        )
    }

    @Test func writeAheadLogIsReadWithTheDatabase() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let live = folder + "/live"
        let copy = folder + "/copy"
        try FileManager.default.createDirectory(atPath: live, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        let path = live + "/CurrentPowerlog.PLSQL"
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            try db.execute(
                sql: Self.offsetTable + """
                    CREATE TABLE 'PLBatteryAgent_EventBackward_BatteryUI' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT,
                      'timestamp' REAL, 'IsCharging' INTEGER, 'Level' REAL);
                    INSERT INTO PLBatteryAgent_EventBackward_BatteryUI (timestamp, IsCharging, Level)
                      VALUES (1000000000, 0, 50), (1000000600, 0, 49);
                    """
            )
        }
        // Copy while the writer is open: the rows live only in the -wal file.
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + "/CurrentPowerlog.PLSQL" + suffix)
        }
        try pool.close()
        let result = try PowerLogReader().read(path: copy + "/CurrentPowerlog.PLSQL")
        #expect(result.report.sources.first?.withWriteAheadLog == true)
        #expect(result.report.battery?.samples.map(\.level) == [50, 49])
        // The evidence folder is left as it was: no new files next to the copy.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: copy).sorted()
                == ["CurrentPowerlog.PLSQL", "CurrentPowerlog.PLSQL-shm", "CurrentPowerlog.PLSQL-wal"]
        )
    }

    @Test func corruptAndTruncatedGzipAreErrorsNotCrashes() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = try FileReading.contents(atPath: CorpusSupport.ios15Gzip)
        let corrupt = folder + "/corrupt.PLSQL.gz"
        var damaged = bytes
        for index in 20..<min(200, damaged.count) { damaged[index] ^= 0x5A }
        FileManager.default.createFile(atPath: corrupt, contents: Data(damaged))
        do {
            _ = try PowerLogReader().read(path: corrupt)
            Issue.record("a corrupt gzip stream was read")
        } catch {
            #expect(error.code == .decompression)
        }
        let truncated = folder + "/truncated.PLSQL.gz"
        FileManager.default.createFile(atPath: truncated, contents: Data(bytes.prefix(bytes.count / 2)))
        do {
            let result = try PowerLogReader().read(path: truncated)
            #expect(result.diagnostics.contains { $0.code == .powerlogTruncatedGzip })
        } catch {
            #expect(error.code == .database)
        }
        #expect(PowerLogReader.isCompressedSQLite(prefix: Array(bytes.prefix(8192))))
        #expect(!PowerLogReader.isCompressedSQLite(prefix: Array("plain".utf8)))
    }

    @Test func mergingFilesOfDifferentDevicesWarns() throws {
        let result = try PowerLogReader().read(paths: [CorpusSupport.ios15, CorpusSupport.ios8])
        #expect(result.diagnostics.contains { $0.severity == .warning && $0.code == .powerlogOtherDevice })
        #expect(result.report.sources.count == 2)
    }

    @Test func unreadableFileInAMergeIsAnErrorDiagnostic() throws {
        let result = try PowerLogReader().read(paths: [CorpusSupport.ios15, "/nonexistent/powerlog.PLSQL"])
        #expect(result.diagnostics.contains { $0.severity == .error && $0.code == .input(.unreadable) })
        #expect(result.report.device == "D16AP")
        #expect(throws: PowerLogError.self) { try PowerLogReader().read(paths: []) }
    }

    @Test func discoveryFindsPowerLogFilesAndSkipsAppleDoubleAndSiblings() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let logs = folder + "/logs/powerlogs"
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        for name in [
            "powerlog_2021-12-16_05-54_84E2141B.PLSQL", "._powerlog_2021-12-16_05-54_84E2141B.PLSQL",
            "powerlog_2021-12-15_05-54_0000AAAA.PLSQL.gz", "log_2021-12-16_05-54_84E2141B.EPSQL",
            "powerlog_2021-12-16_05-54_84E2141B.PLSQL-wal", "notes.txt",
        ] {
            FileManager.default.createFile(atPath: logs + "/" + name, contents: Data())
        }
        let discovery = PowerLogReader.discover(in: RawPath(folder))
        #expect(discovery.findings.isEmpty)
        let found = discovery.files.map { String(decoding: $0.lastComponent, as: UTF8.self) }
        #expect(
            found == [
                "log_2021-12-16_05-54_84E2141B.EPSQL", "powerlog_2021-12-15_05-54_0000AAAA.PLSQL.gz",
                "powerlog_2021-12-16_05-54_84E2141B.PLSQL",
            ]
        )
    }

    @Test func exitReasonDecoding() {
        typealias Reason = PowerLogReport.ProcessExit.Reason
        #expect(Reason(namespace: 1, code: 2).codeName == "highwater")
        #expect(Reason(namespace: 15, code: 0xdead_10cc).codeName == "lock held while suspended")
        #expect(Reason(namespace: 15, code: 0xdead_10cc).namespaceName == "RUNNINGBOARD")
        #expect(Reason(namespace: 2, code: 9).category == .other)
        #expect(Reason(namespace: 2, code: 6).category == .crash)
        #expect(Reason(namespace: 2, code: 6).codeName == "SIGABRT")
        #expect(Reason(namespace: 3, code: 1).category == .crash)
        #expect(Reason(namespace: 20, code: 1).category == .watchdog)
        #expect(Reason(namespace: nil, code: nil).category == .other)
    }

    @Test func componentMapping() {
        #expect(PowerLogComponent(rootNodeName: "RestOfSOC") == .soc)
        #expect(PowerLogComponent(rootNodeName: "WiFi-Location") == .location)
        #expect(PowerLogComponent(rootNodeName: "WiFi-Idle") == .wifi)
        #expect(PowerLogComponent(rootNodeName: "BB-PhoneCall") == .cellular)
        #expect(PowerLogComponent(rootNodeName: "mediaserverd-Audio") == .audio)
        #expect(PowerLogComponent(rootNodeName: "AudioSpeaker") == .audio)
        #expect(PowerLogComponent(rootNodeName: "BackCamera") == .camera)
        #expect(PowerLogComponent(rootNodeName: "Something") == .other)
        #expect(PowerLogComponent(blmColumn: "BLMEnergyBB") == .cellular)
        #expect(PowerLogComponent(blmColumn: "BLMEnergyWiFiLocationScan") == .location)
        #expect(PowerLogComponent(blmColumn: "BLMEnergyPA_locationd") == .daemons)
        #expect(PowerLogComponent(blmColumn: "BLMEnergy_BackgroundLocation") == nil)
        #expect(PowerLogComponent(blmColumn: "BLMEnergy") == nil)
        #expect(PowerLogComponent(blmColumn: "Airplay") == nil)
    }
}
