#!/usr/bin/env python3
"""Writes the project's own PowerLog test databases into Corpus/powerlog/.

The tables follow the CREATE TABLE statements documented in reference/powerlog.md (iOS 15.0.2 schema, the
reconstructed iOS 8 BLM table and the synthetic ProcessExit table); every value is invented, chosen so that the
expected results in Corpus/powerlog/README.md can be worked out by hand. Deterministic: running it again writes
byte-identical databases (gzip header time fixed at 0).

usage: Scripts/generate-powerlog-corpus.py [OUTPUT_DIR]   (default: Corpus/powerlog next to this script)
"""
import gzip
import io
import os
import sqlite3
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "Corpus", "powerlog")

# iOS 15 shape: statements as documented (reference/powerlog.md §2.2, §2.4, §3.2–3.9).
IOS15_TABLES = [
    "CREATE TABLE 'PLStorageOperator_EventForward_TimeOffset' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'baseband' REAL, 'kernel' REAL, 'system' REAL)",
    "CREATE TABLE 'PLLocaleAgent_EventForward_TimeZone' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'CountryCode' TEXT, 'LocaleId' TEXT, 'SecondsFromGMT' INTEGER, 'TimeZoneIsInDST' INTEGER, 'TimeZoneName' TEXT, 'Trigger' TEXT)",
    "CREATE TABLE 'PLConfigAgent_EventNone_Config' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'Build' TEXT, 'Device' TEXT, 'DeviceBootTime' REAL, 'LastBuild' TEXT)",
    "CREATE TABLE 'PLStorageOperator_EventForward_Configuration' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'DefaultsEnabled' INTEGER, 'ExitReason' INTEGER, 'Mode' TEXT, 'PID' INTEGER, 'ProcessName' TEXT, 'Version' TEXT)",
    "CREATE TABLE 'PLCoreStorage_schemaVersions' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'tableName' TEXT, 'schemaVersion' REAL)",
    "CREATE TABLE 'PLAccountingOperator_EventNone_Nodes' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'IsPermanent' INTEGER, 'Name' TEXT)",
    "CREATE TABLE 'PLAccountingOperator_Aggregate_RootNodeEnergy' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'timeInterval' REAL, 'Energy' INTEGER, 'NodeID' INTEGER, 'RootNodeID' INTEGER)",
    "CREATE TABLE 'PLBatteryAgent_EventBackward_Battery' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'Level' REAL, 'RawLevel' REAL, 'AtCriticalLevel' INTEGER, 'Voltage' INTEGER, 'InstantAmperage' INTEGER, 'CurrentCapacity' INTEGER, 'AppleRawMaxCapacity' INTEGER, 'DesignCapacity' INTEGER, 'CycleCount' INTEGER, 'IsCharging' INTEGER, 'FullyCharged' INTEGER, 'Amperage' INTEGER, 'Temperature' REAL, 'ExternalConnected' INTEGER, 'PresentMaxRa0-8' INTEGER)",
    "CREATE TABLE 'PLBatteryAgent_EventBackward_BatteryUI' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'IsCharging' INTEGER, 'Level' REAL)",
    "CREATE TABLE 'PLAppTimeService_Aggregate_AppRunTime' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'timeInterval' REAL, 'BackgroundAudioNowPlayingPluggedInTime' REAL, 'BackgroundAudioNowPlayingTime' REAL, 'BackgroundAudioPlayingTime' REAL, 'BackgroundAudioPlayingTimePluggedIn' REAL, 'BackgroundLocationAudioPluggedInTime' REAL, 'BackgroundLocationAudioTime' REAL, 'BackgroundLocationPluggedInTime' REAL, 'BackgroundLocationTime' REAL, 'BackgroundPluggedInTime' REAL, 'BackgroundTime' REAL, 'BundleID' TEXT, 'ScreenOnPluggedInTime' REAL, 'ScreenOnTime' REAL)",
    "CREATE TABLE 'PLProcessMonitorAgent_EventPoint_ProcessExit' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'PID' INTEGER, 'ProcessName' TEXT, 'timeSinceSpawn' INTEGER, 'lastTimeToRelaunch' INTEGER, 'ReasonNamespace' INTEGER, 'ReasonCode' INTEGER, 'JetsamPriority' INTEGER)",
    "CREATE TABLE 'PLCoalitionAgent_EventInterval_CoalitionInterval' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'BundleId' TEXT, 'LaunchdCoalitionId' INTEGER, 'LaunchdName' TEXT, 'bytesread' REAL, 'byteswritten' REAL, 'cpu_instructions' INTEGER, 'cpu_time' REAL, 'energy' INTEGER, 'gpu_time' REAL, 'timestampEnd' REAL)",
    "CREATE TABLE 'PLDisplayAgent_EventPoint_Display' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'Block' TEXT, 'Active' INTEGER)",
    "CREATE TABLE 'PLScreenStateAgent_EventForward_ScreenState' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'AppRole' INTEGER, 'Display' INTEGER, 'Level' REAL, 'Orientation' INTEGER, 'ScreenWeight' REAL, 'bundleID' TEXT)",
    "CREATE TABLE 'PLApplicationAgent_EventNone_AllApps' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'AppArchitecture' TEXT, 'AppBuildVersion' TEXT, 'AppBundleId' TEXT, 'AppBundleVersion' TEXT, 'AppCohort' TEXT, 'AppDeletedDate' INTEGER, 'AppExecutable' TEXT, 'AppIs3rdParty' INTEGER, 'AppIsBeta' INTEGER, 'AppIsClip' INTEGER, 'AppItemID' INTEGER, 'AppName' TEXT, 'AppStoreFront' INTEGER, 'AppType' INTEGER, 'AppUUID' TEXT, 'AppVendorID' TEXT)",
    "CREATE TABLE 'BasebandMetrics_TelephonyActivity_1_2' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'signalBars' INTEGER, 'airplaneMode' INTEGER)",
]

T0 = 1699142400.0  # raw PowerLog clock, 2023-11-05 00:00:00 if read as UTC; DST ends in Toronto at 06:00 UTC
HOUR = 3600.0


def ios15_rows(keep=lambda raw: True):
    """The rows of the iOS 15-style history, as (table, columns, values); `keep` filters by raw timestamp."""
    rows = []

    def add(table, columns, values):
        raw = values[columns.index("timestamp")] if "timestamp" in columns else None
        if raw is None or keep(raw) or table in ("PLAccountingOperator_EventNone_Nodes",):
            rows.append((table, columns, values))

    # Clock offsets: -400 s until raw T0+6h, then -700 s (a mid-log clock correction).
    for raw, system in ((T0 - 500, -400.0), (T0 + 6 * HOUR, -700.0)):
        add("PLStorageOperator_EventForward_TimeOffset", ["timestamp", "baseband", "kernel", "system"],
            [raw, 0.0389959, -1571153284.123674, system])
    # Time zone: DST row, then the standard-time row PowerLog writes after the change.
    add("PLLocaleAgent_EventForward_TimeZone",
        ["timestamp", "CountryCode", "LocaleId", "SecondsFromGMT", "TimeZoneIsInDST", "TimeZoneName", "Trigger"],
        [T0 - 1000, "CA", "en_CA", -14400, 1, "America/Toronto", "powerlog"])
    add("PLLocaleAgent_EventForward_TimeZone",
        ["timestamp", "CountryCode", "LocaleId", "SecondsFromGMT", "TimeZoneIsInDST", "TimeZoneName", "Trigger"],
        [T0 + 7 * HOUR, "CA", "en_CA", -18000, 0, "America/Toronto", "powerlog"])
    add("PLConfigAgent_EventNone_Config", ["timestamp", "Build", "Device", "DeviceBootTime", "LastBuild"],
        [T0 - 900, "19H12", "D16AP", T0 - 1200, "19H12"])
    add("PLStorageOperator_EventForward_Configuration",
        ["timestamp", "DefaultsEnabled", "ExitReason", "Mode", "PID", "ProcessName", "Version"],
        [T0 - 800, None, 1, "Full", 251, "powerlogHelperd", "1.08"])

    # Battery every 5 minutes: charging 40 -> 80 % (0-2 h), then discharging 10 %/h (2-4 h, screen on) and
    # 1 %/h (4-12 h, screen off).
    for i in range(0, 145):
        raw = T0 + i * 300
        h = i * 300 / HOUR
        if h <= 2:
            level, charging = 40 + 20 * h, 1
        elif h <= 4:
            level, charging = 80 - 10 * (h - 2), 0
        else:
            level, charging = 60 - 1 * (h - 4), 0
        add("PLBatteryAgent_EventBackward_Battery",
            ["timestamp", "Level", "RawLevel", "AtCriticalLevel", "Voltage", "InstantAmperage", "CurrentCapacity",
             "AppleRawMaxCapacity", "DesignCapacity", "CycleCount", "IsCharging", "FullyCharged", "Amperage",
             "Temperature", "ExternalConnected", "PresentMaxRa0-8"],
            [raw, float(round(level)), level, 0, 3700 + int(level * 5), 1500 if charging else -300, round(level),
             2950, 3227, 412, charging, 0, 2400 if charging else -300, 2950 if i == 0 else 29.5, charging, 0])
        if i % 6 == 0:
            add("PLBatteryAgent_EventBackward_BatteryUI", ["timestamp", "IsCharging", "Level"],
                [raw, charging, float(round(level))])

    # Screen: on 0:05-0:30 (on the charger), on 2:00-4:00, off otherwise.
    for raw, active in ((T0 + 300, 1), (T0 + 1800, 0), (T0 + 2 * HOUR, 1), (T0 + 4 * HOUR, 0)):
        add("PLDisplayAgent_EventPoint_Display", ["timestamp", "Block", "Active"], [raw, "Backlight", active])
    add("PLDisplayAgent_EventPoint_Display", ["timestamp", "Block", "Active"], [T0 + 3 * HOUR, "ALS", 0])
    add("PLScreenStateAgent_EventForward_ScreenState",
        ["timestamp", "AppRole", "Display", "Level", "Orientation", "ScreenWeight", "bundleID"],
        [T0 + 2 * HOUR, 1, 0, 0.0, 1, 1.0, "com.example.maps"])

    # Energy accounting: hourly buckets stamped at :05:45 like the real database, plus two daily rows.
    for node_id, permanent, name in ((2, 1, "CPU"), (7, 1, "RestOfSOC"), (8, 1, "GPU"), (10, 1, "Display"),
                                     (11, 1, "WiFi-Data"), (48, 1, "GPS"), (53, 1, "WiFi-Idle"),
                                     (10000, 1, "RootNodeMaxCount"), (10010, 1, "BB"),
                                     (10100, 0, "com.example.maps"), (10101, 0, "com.example.chat"),
                                     (10102, 0, "backboardd")):
        add("PLAccountingOperator_EventNone_Nodes", ["ID", "timestamp", "IsPermanent", "Name"],
            [node_id, T0 - 86400 * 40, permanent, name])
    energy_cols = ["timestamp", "timeInterval", "Energy", "NodeID", "RootNodeID"]
    for k in range(12):
        start = T0 + k * HOUR + 345
        add("PLAccountingOperator_Aggregate_RootNodeEnergy", energy_cols, [start, HOUR, 100, 10100, 2])
        add("PLAccountingOperator_Aggregate_RootNodeEnergy", energy_cols, [start, HOUR, 50, 10100, 48])
        if k in (2, 3):
            add("PLAccountingOperator_Aggregate_RootNodeEnergy", energy_cols, [start, HOUR, 200, 10100, 10])
        # A real in an INTEGER column, and a number stored as text: declared types are not trusted.
        add("PLAccountingOperator_Aggregate_RootNodeEnergy", energy_cols, [start, HOUR, 40.5, 10101, 2])
        add("PLAccountingOperator_Aggregate_RootNodeEnergy", energy_cols, [start, HOUR, "10" if k == 5 else 10, 10101, 11])
        if k < 4:
            add("PLAccountingOperator_Aggregate_RootNodeEnergy", energy_cols, [start, HOUR, 25, 10101, 10010])
        add("PLAccountingOperator_Aggregate_RootNodeEnergy", energy_cols, [start, HOUR, 30, 10102, 7])
        add("PLAccountingOperator_Aggregate_RootNodeEnergy", energy_cols, [start, HOUR, 5, 53, 53])
    # Daily rows: the previous day has no hourly buckets (counted); today's repeats the hours (not counted).
    add("PLAccountingOperator_Aggregate_RootNodeEnergy", energy_cols, [T0 - 86400 + 345, 86400.0, 5000, 10100, 2])
    add("PLAccountingOperator_Aggregate_RootNodeEnergy", energy_cols, [T0 + 345, 86400.0, 1200, 10100, 2])

    # App run time: Maps in front 2-4 h, then in the background with location 4-12 h; Chat in the background.
    run_cols = ["timestamp", "timeInterval", "BackgroundAudioNowPlayingPluggedInTime", "BackgroundAudioNowPlayingTime",
                "BackgroundAudioPlayingTime", "BackgroundAudioPlayingTimePluggedIn",
                "BackgroundLocationAudioPluggedInTime", "BackgroundLocationAudioTime",
                "BackgroundLocationPluggedInTime", "BackgroundLocationTime", "BackgroundPluggedInTime",
                "BackgroundTime", "BundleID", "ScreenOnPluggedInTime", "ScreenOnTime"]
    for k in range(12):
        start = T0 + k * HOUR + 345
        if k in (2, 3):
            add("PLAppTimeService_Aggregate_AppRunTime", run_cols,
                [start, HOUR, 0, 0, 0, 0, 0, 0, 0, 0.0, 0, 0.0, "com.example.maps", 0.0, 1800.0])
        if k >= 4:
            add("PLAppTimeService_Aggregate_AppRunTime", run_cols,
                [start, HOUR, 0, 0, 0, 0, 0, 0, 0, 600.0, 0, 600.0, "com.example.maps", 0.0, 0.0])
        add("PLAppTimeService_Aggregate_AppRunTime", run_cols,
            [start, HOUR, 0, 0, 0, 0, 0, 0, 0, 0.0, 0, 120.0, "com.example.chat", 0.0, 0.0])

    # Process exits: a jetsam per-process-limit kill, a 0x8badf00d watchdog kill, a SIGSEGV crash.
    exit_cols = ["timestamp", "PID", "ProcessName", "timeSinceSpawn", "lastTimeToRelaunch", "ReasonNamespace",
                 "ReasonCode", "JetsamPriority"]
    add("PLProcessMonitorAgent_EventPoint_ProcessExit", exit_cols, [T0 + 5 * HOUR, 412, "Chat", 3600, 0, 1, 7, 3])
    add("PLProcessMonitorAgent_EventPoint_ProcessExit", exit_cols,
        [T0 + 8 * HOUR, 399, "Maps", 20, 0, 10, 2343432205, 10])
    add("PLProcessMonitorAgent_EventPoint_ProcessExit", exit_cols, [T0 + 9 * HOUR, 455, "Chat", 90, 0, 2, 11, 10])

    coal_cols = ["timestamp", "BundleId", "LaunchdCoalitionId", "LaunchdName", "bytesread", "byteswritten",
                 "cpu_instructions", "cpu_time", "energy", "gpu_time", "timestampEnd"]
    for k in range(12):
        start = T0 + k * HOUR
        add("PLCoalitionAgent_EventInterval_CoalitionInterval", coal_cols,
            [start, "com.example.maps", 501, "com.example.maps", 1048576.0, 2097152.0, 9000000, 30.0, 1000000000,
             1.5, start + HOUR])
        add("PLCoalitionAgent_EventInterval_CoalitionInterval", coal_cols,
            [start, "", 60, "com.apple.backboardd", 0.0, 4096.0, 100000, 10.0, 200000000, 0.0, start + HOUR])
    for bundle, name, version in (("com.example.maps", "Maps Example", "4.2"), ("com.example.chat", "Chat", "7.0.1")):
        add("PLApplicationAgent_EventNone_AllApps",
            ["timestamp", "AppBuildVersion", "AppBundleId", "AppBundleVersion", "AppDeletedDate", "AppIs3rdParty",
             "AppName", "AppType"],
            [T0 - 10 * 86400, version, bundle, version, 0, 1, name, 4])
    add("BasebandMetrics_TelephonyActivity_1_2", ["timestamp", "signalBars", "airplaneMode"], [T0 + 60, 3, 0])
    return rows


def write(path, tables, rows):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 1024")
    for statement in tables:
        db.execute(statement)
    for table, columns, values in rows:
        names = ", ".join("'%s'" % c for c in columns)
        marks = ", ".join("?" for _ in columns)
        db.execute("INSERT INTO '%s' (%s) VALUES (%s)" % (table, names, marks), values)
    db.commit()
    db.execute("VACUUM")
    db.close()


def gzip_file(source, target):
    with open(source, "rb") as f:
        data = f.read()
    with open(target, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as z:
            z.write(data)


# iOS 8 shape: the BLM table reconstructed in reference/powerlog.md §3.1, a battery table and the clock tables.
IOS8_BLM_COLUMNS = [
    "BLMEnergyAccessory", "BLMEnergyAssertion", "BLMEnergyAudio", "BLMEnergyBB", "BLMEnergyBluetooth", "BLMEnergyCPU",
    "BLMEnergyDisplay", "BLMEnergyGPS", "BLMEnergyGPU", "BLMEnergySOC", "BLMEnergyTorch", "BLMEnergyWiFi",
    "BLMEnergyWiFiLocationScan", "BLMEnergyWiFiPipelineScan", "BLMEnergy_BackgroundCPU",
    "BLMEnergy_BackgroundLocation", "BLMEnergyPA_accessories", "BLMEnergyPA_apsd", "BLMEnergyPA_assetsd",
    "BLMEnergyPA_backboardd", "BLMEnergyPA_cloudd", "BLMEnergyPA_commcenter", "BLMEnergyPA_discoverydBB",
    "BLMEnergyPA_discoverydWifi", "BLMEnergyPA_kernel_task", "BLMEnergyPA_locationd", "BLMEnergyPA_mediaserverd",
    "BLMEnergyPA_notification_display", "BLMEnergyPA_nsurlsessiond", "BLMEnergyPA_syncdefaultd",
]
IOS8_TABLES = [
    "CREATE TABLE 'PLBLMAccountingService_Aggregate_BLMAppEnergyBreakdown' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, "
    "'timestamp' REAL, 'timeInterval' REAL, 'BLMAppName' TEXT, 'BLMEnergy' REAL, "
    + ", ".join("'%s' REAL" % c for c in IOS8_BLM_COLUMNS)
    + ", 'Airdrop' REAL, 'Airplay' REAL, 'AirplayMirroring' REAL, 'BBCondition' REAL, 'background' REAL)",
    "CREATE TABLE 'PLStorageOperator_EventForward_TimeOffset' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'baseband' REAL, 'kernel' REAL, 'system' REAL)",
    "CREATE TABLE 'PLConfigAgent_EventNone_Config' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'Build' TEXT, 'Device' TEXT)",
    "CREATE TABLE 'PLBatteryAgent_EventBackward_Battery' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'Level' REAL, 'RawLevel' REAL, 'Voltage' INTEGER, 'InstantAmperage' INTEGER, 'IsCharging' INTEGER, 'ExternalConnected' INTEGER, 'Temperature' REAL)",
    "CREATE TABLE 'PLIOReportAgent_EventBackward_EnergyModel' ('ID' INTEGER PRIMARY KEY AUTOINCREMENT, 'timestamp' REAL, 'CPU Energy' INTEGER, 'GPU Energy' INTEGER)",
]
T8 = 1416000000.0  # 2014-11-14 21:20:00 if read as UTC


def ios8_rows():
    rows = [("PLStorageOperator_EventForward_TimeOffset", ["timestamp", "baseband", "kernel", "system"],
             [T8 - 600, 0.0, 0.0, -69.0]),
            ("PLConfigAgent_EventNone_Config", ["timestamp", "Build", "Device"], [T8 - 500, "12B411", "N51AP"])]
    cols = ["timestamp", "timeInterval", "BLMAppName", "BLMEnergy", "BLMEnergyCPU", "BLMEnergyGPS", "BLMEnergyDisplay",
            "BLMEnergyWiFi", "BLMEnergyAudio", "BLMEnergyBB", "BLMEnergy_BackgroundCPU", "BLMEnergy_BackgroundLocation",
            "BLMEnergyPA_mediaserverd"]
    for k in range(6):
        start = T8 + k * HOUR
        rows.append(("PLBLMAccountingService_Aggregate_BLMAppEnergyBreakdown", cols,
                     [start, HOUR, "com.example.runner", 300.0, 100.0, 150.0, 50.0, 0.0, 0.0, 0.0, 20.0,
                      120.0 if k in (1, 2, 3) else 0.0, 0.0]))
        if k < 2:
            rows.append(("PLBLMAccountingService_Aggregate_BLMAppEnergyBreakdown", cols,
                         [start, HOUR, "com.apple.mobilesafari", 500.0, 200.0, 0.0, 250.0, 50.0, 0.0, 0.0, 0.0, 0.0,
                          0.0]))
        rows.append(("PLBLMAccountingService_Aggregate_BLMAppEnergyBreakdown", cols,
                     [start, HOUR, "com.example.podcasts", 80.0, 0.0, 0.0, 0.0, 0.0, 60.0, 20.0, 30.0, 0.0, 15.0]))
    # Discharging 90 -> 78 % over 6 h (2 %/h), sampled every 10 minutes; no display table on this device.
    for i in range(37):
        raw = T8 + i * 600
        level = 90 - 2 * (i * 600 / HOUR)
        rows.append(("PLBatteryAgent_EventBackward_Battery",
                     ["timestamp", "Level", "RawLevel", "Voltage", "InstantAmperage", "IsCharging",
                      "ExternalConnected", "Temperature"],
                     [raw, float(round(level)), level, 3900, -250, 0, 0, 27.0]))
    rows.append(("PLIOReportAgent_EventBackward_EnergyModel", ["timestamp", "CPU Energy", "GPU Energy"],
                 [T8 + 60, 1234, 56]))
    return rows


def main():
    os.makedirs(OUT, exist_ok=True)
    ios15 = os.path.join(OUT, "ios15_offset-change_D16AP_19H12.PLSQL")
    write(ios15, IOS15_TABLES, ios15_rows())
    gzip_file(ios15, os.path.join(OUT, "ios15_offset-change_D16AP_19H12_copy.PLSQL.gz"))
    write(os.path.join(OUT, "ios8_BLMAppEnergyBreakdown_N51AP_12B411.PLSQL"), IOS8_TABLES, ios8_rows())
    # Two rotated files of the iOS 15 history overlapping by two hours (raw 5-7 h): merged they give the
    # single file's results, the overlap counted once.
    rotated = os.path.join(OUT, "rotated")
    os.makedirs(rotated, exist_ok=True)
    part1 = os.path.join(rotated, "powerlog_2023-11-05_07-00_1A2B3C4D.PLSQL")
    write(part1, IOS15_TABLES, ios15_rows(lambda raw: raw < T0 + 7 * HOUR))
    part2 = os.path.join(rotated, "powerlog_2023-11-05_12-00_5E6F7A8B.PLSQL")
    write(part2, IOS15_TABLES, ios15_rows(lambda raw: raw >= T0 + 5 * HOUR or raw < T0))
    gzip_file(part2, part2 + ".gz")
    os.remove(part2)
    # A sysdiagnose-shaped archive holding the two rotated files under logs/powerlogs/, an AppleDouble decoy and an
    # unrelated file: reading the archive gives the merged history.
    top = "sysdiagnose_2023.11.05_07-00-00-0500_iPhone-OS_iPhone_19H12"
    members = [
        (top + "/logs/powerlogs/powerlog_2023-11-05_07-00_1A2B3C4D.PLSQL", open(part1, "rb").read()),
        (top + "/logs/powerlogs/._powerlog_2023-11-05_07-00_1A2B3C4D.PLSQL", b"\x00\x05\x16\x07AppleDouble"),
        (top + "/logs/powerlogs/powerlog_2023-11-05_12-00_5E6F7A8B.PLSQL.gz", open(part2 + ".gz", "rb").read()),
        (top + "/remotectl_dumpstate.txt", b"Local device\n\tProperties:\n\t\tProductType => iPhone14,5\n"),
    ]
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode, info.uname, info.gname = len(data), 1699167600, 0o644, "mobile", "mobile"
            tar.addfile(info, io.BytesIO(data))
    with open(os.path.join(OUT, top + ".tar.gz"), "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as z:
            z.write(buffer.getvalue())
    for name in sorted(os.listdir(OUT)):
        print(name)


if __name__ == "__main__":
    main()
