import APMInspectCore
import FleetReport
import Testing

/// The aggregation: groups, shares, first and last seen, new groups, caps, filters, order independence.
@Suite struct FleetAggregatorTests {
    static func crash(
        _ signature: String,
        version: String?,
        date: String?,
        device: String = "iPhone15,3",
        os: String = "17.2.1",
        bundle: String = "io.tidewater.harbor",
        file: String? = nil
    ) -> FleetEvent {
        let context = FleetEvent.Context(
            bundleId: bundle,
            process: "Harbor",
            appVersion: version,
            appBuild: version.map { "b" + $0 },
            osVersion: os,
            device: device,
            date: date.flatMap(AppleTimestamp.init)
        )
        return FleetEvent(
            file: file ?? "reports/\(signature)-\(version ?? "none")-\(date ?? "undated").ips",
            kind: "crashReport",
            crashes: [
                FleetEvent.Crash(
                    signature: signature,
                    source: "crashReport",
                    exception: "EXC_CRASH (SIGABRT)",
                    topFrame: "HarborKit`frame-\(signature)",
                    context: context
                )
            ]
        )
    }

    /// Ten crashes over three signatures and three versions; `c` only in the newest version (3.10.0).
    static let fleet: [FleetEvent] = [
        crash("a", version: "3.9.0", date: "2024-05-01T10:00:00Z"),
        crash("a", version: "3.9.0", date: "2024-05-03T10:00:00Z", device: "iPhone14,7"),
        crash("a", version: "3.10.0", date: "2024-05-02T09:00:00+02:00", os: "17.4"),
        crash("a", version: "3.4.1", date: "2024-04-28T23:59:59-05:00"),
        crash("b", version: "3.9.0", date: "2024-05-05T08:00:00Z"),
        crash("b", version: "3.10.0", date: "2024-05-06T08:00:00Z"),
        crash("b", version: nil, date: nil),
        crash("c", version: "3.10.0", date: "2024-05-07T12:00:00Z"),
        crash("c", version: "3.10.0", date: "2024-05-07T13:00:00Z", device: "iPad13,4"),
        crash("c", version: "3.10.0", date: "2024-05-08T13:00:00Z"),
    ]

    static func summary(
        _ events: [FleetEvent],
        filter: FleetFilter = FleetFilter(),
        limits: FleetLimits = FleetLimits()
    )
        -> FleetSummary
    {
        var aggregator = FleetAggregator(filter: filter, limits: limits)
        for event in events { aggregator.add(event) }
        return aggregator.summary()
    }

    @Test func groupsBySignatureMostFirstThenBySignature() {
        let summary = Self.summary(Self.fleet)
        #expect(summary.crashes.total == 10)
        #expect(summary.crashes.signatures == 3)
        #expect(summary.crashes.groups.map(\.signature) == ["a", "b", "c"])
        #expect(summary.crashes.groups.map(\.count) == [4, 3, 3])
        #expect(summary.crashes.groups.map(\.share) == [0.4, 0.3, 0.3])
        let a = summary.crashes.groups[0]
        #expect(a.appVersions.values.map(\.value) == ["3.9.0", "3.10.0", "3.4.1"])
        #expect(a.appVersions.values.map(\.count) == [2, 1, 1])
        #expect(a.devices.values.map(\.value) == ["iPhone15,3", "iPhone14,7"])
        #expect(a.osVersions.values.map(\.value) == ["17.2.1", "17.4"])
        #expect(a.topFrame == "HarborKit`frame-a")
    }

    @Test func firstAndLastSeenCompareInstantsNotText() {
        let a = Self.summary(Self.fleet).crashes.groups[0]
        // 2024-04-28T23:59:59-05:00 is 04:59:59 UTC on the 29th: the earliest, though its text sorts later.
        #expect(a.firstSeen == "2024-04-28T23:59:59-05:00")
        #expect(a.lastSeen == "2024-05-03T10:00:00+00:00")
        #expect(a.representativeFile == "reports/a-3.9.0-2024-05-03T10:00:00Z.ips")
        let b = Self.summary(Self.fleet).crashes.groups[1]
        #expect(b.undated == 1)
        #expect(b.appVersions.values.contains { $0.value == "?" && $0.count == 1 })
    }

    @Test func groupsNewInTheNewestVersion() {
        let summary = Self.summary(Self.fleet)
        // 3.10.0 is newer than 3.9.0: versions order as numbers, not as text.
        #expect(summary.crashes.newestVersion == "3.10.0")
        #expect(summary.crashes.newInNewestVersion == ["c"])
        #expect(summary.crashes.groups.map(\.newInNewestVersion) == [false, false, true])
    }

    @Test func crashesPerDayOfTheTopGroups() {
        let series = Self.summary(Self.fleet).crashes.perDay
        #expect(series.map(\.signature) == ["a", "b", "c"])
        #expect(series[2].days == [.init(day: "2024-05-07", count: 2), .init(day: "2024-05-08", count: 1)])
        // Days are UTC days: 23:59:59-05:00 on the 28th is the 29th.
        #expect(series[0].days.first == .init(day: "2024-04-29", count: 1))
        #expect(series[1].days.map(\.count).reduce(0, +) == 2)
    }

    @Test func theSummaryDoesNotDependOnTheOrderOfReports() {
        let forward = Self.summary(Self.fleet)
        var generator = SplitMix(seed: 42)
        for _ in 0..<20 {
            let shuffled = Self.fleet.shuffled(using: &generator)
            #expect(Self.summary(shuffled) == forward)
        }
    }

    /// Issue 46: a Spark or Ray job hands the reports over in whatever order its partitions finish, so the listed
    /// skipped files are the first by path bytes, not the first read.
    @Test func theSkippedFilesListedDoNotDependOnTheOrderOfReports() {
        var limits = FleetLimits()
        limits.maxFindings = 3
        let skipped = [
            FleetEvent(file: "-!/batch0001/capture.har", kind: "httpArchive"),
            FleetEvent(file: "-!/batch0000/notes.txt", kind: "unknown"),
            FleetEvent(file: "-!/batch0002/zeta.har", kind: "httpArchive"),
            FleetEvent(file: "-!/batch0000/broken.ips", kind: "unknown", unreadable: true, failure: "truncated"),
            FleetEvent(file: "-!/batch0000/Ärger.har", kind: "httpArchive"),
        ]
        let events = Self.fleet + skipped
        let forward = Self.summary(events, limits: limits)
        #expect(forward.inputs.skippedFiles == 5)
        #expect(
            forward.inputs.skipped.map(\.file) == [
                "-!/batch0000/broken.ips", "-!/batch0000/notes.txt", "-!/batch0000/Ärger.har",
            ]
        )
        #expect(forward.inputs.skipped.first?.reason == "could not be read: truncated")
        var generator = SplitMix(seed: 46)
        for _ in 0..<20 {
            #expect(Self.summary(events.shuffled(using: &generator), limits: limits) == forward)
        }
    }

    @Test func capsKeepTheNewestVersionsAndCountTheRest() {
        var limits = FleetLimits()
        limits.maxVersions = 3
        limits.maxDevices = 2
        limits.maxDays = 2
        let events = (1...12).map { minor in
            Self.crash(
                "x",
                version: "1.\(minor)",
                date: "2024-05-\(minor < 10 ? "0" : "")\(minor)T12:00:00Z",
                device: "iPhone\(minor % 4),1"
            )
        }
        let forward = Self.summary(events, limits: limits)
        let group = forward.crashes.groups[0]
        #expect(group.count == 12)
        #expect(Set(group.appVersions.values.map(\.value)) == ["1.10", "1.11", "1.12"])
        #expect(group.appVersions.others == 9)
        #expect(group.devices.values.count == 2)
        #expect(group.devices.values.map(\.count).reduce(0, +) + group.devices.others == 12)
        #expect(forward.crashes.perDay[0].days.map(\.day) == ["2024-05-11", "2024-05-12"])
        #expect(forward.crashes.perDay[0].earlier == 10)
        #expect(Self.summary(events.reversed(), limits: limits) == forward)
    }

    /// Issue 41: two apps' versions are never compared; a version of question marks or blank names none.
    @Test func theNewestVersionIsPerApp() {
        let events = [
            Self.crash("old", version: "2.9.1", date: "2024-05-01T10:00:00Z", bundle: "com.example.lumen"),
            Self.crash("old", version: "2.10.0", date: "2024-05-02T10:00:00Z", bundle: "com.example.lumen"),
            Self.crash("fresh", version: "2.10.0", date: "2024-05-03T10:00:00Z", bundle: "com.example.lumen"),
            Self.crash("other", version: "6.4.0", date: "2024-05-03T10:00:00Z", bundle: "com.example.ferrule"),
            Self.crash("other", version: "6.3", date: "2024-05-01T10:00:00Z", bundle: "com.example.ferrule"),
            Self.crash("unknown", version: "???", date: "2024-05-04T10:00:00Z", bundle: "com.example.quill"),
            Self.crash("unknown", version: " ", date: "2024-05-05T10:00:00Z", bundle: "com.example.quill"),
        ]
        let summary = Self.summary(events)
        #expect(summary.crashes.newestVersionByApp == ["com.example.lumen": "2.10.0", "com.example.ferrule": "6.4.0"])
        #expect(summary.crashes.newestVersion == "6.4.0")
        // `fresh` is new in Lumen's newest version although Ferrule's 6.4.0 is greater.
        #expect(summary.crashes.newInNewestVersion == ["fresh"])
        let fresh = summary.crashes.groups.first { $0.signature == "fresh" }
        #expect(fresh?.app == "com.example.lumen" && fresh?.appNewestVersion == "2.10.0")
        let unknown = summary.crashes.groups.first { $0.signature == "unknown" }
        #expect(unknown?.appVersions.values.map(\.value) == ["?"])
        #expect(unknown?.appVersions.values.map(\.count) == [2])
        #expect(unknown?.newInNewestVersion == false && unknown?.appNewestVersion == nil)
        #expect(summary == Self.summary(events.reversed()))
    }

    /// `othersValues` counts the distinct values outside the list; `others` keeps counting their reports.
    @Test func hiddenValuesAreCountedAsValues() {
        var limits = FleetLimits()
        limits.maxVersions = 2
        let versions = ["1.1", "1.1", "1.1", "1.2", "1.3", "1.4", "1.4"]
        let events = versions.enumerated().map { index, version in
            Self.crash("x", version: version, date: "2024-05-0\(index + 1)T12:00:00Z", file: "r/\(index).ips")
        }
        let group = Self.summary(events, limits: limits).crashes.groups[0]
        #expect(group.appVersions.values.map(\.value) == ["1.4", "1.3"])
        #expect(group.appVersions.others == 4)
        #expect(group.appVersions.othersValues == 2)
        #expect(group.files == ["r/0.ips", "r/1.ips", "r/2.ips", "r/3.ips", "r/4.ips"])
        #expect(group.moreFiles == 2)
        #expect(Self.summary(events.reversed(), limits: limits) == Self.summary(events, limits: limits))
    }

    @Test func signaturesPastTheGroupLimitAreCountedNotGrouped() {
        var limits = FleetLimits()
        limits.maxGroups = 2
        let summary = Self.summary(Self.fleet, limits: limits)
        #expect(summary.crashes.signatures == 2)
        #expect(summary.crashes.ungrouped == 3)
        #expect(summary.crashes.total == 10)
    }

    @Test func sinceLeavesOutOlderAndUndatedReports() throws {
        let since = try #require(FleetFilter.parseSince("2024-05-05"))
        let summary = Self.summary(Self.fleet, filter: FleetFilter(since: since))
        #expect(summary.crashes.total == 5)
        #expect(summary.crashes.groups.map(\.signature) == ["c", "b"])
        #expect(summary.inputs.excluded == 5)
        #expect(FleetFilter.parseSince("2024-02-30") == nil)
        #expect(FleetFilter.parseSince("yesterday") == nil)
        #expect(FleetFilter.parseSince("2024-05-05T00:00:00+02:00") == since - 7200)
    }

    @Test func appAndVersionFilters() {
        var events = Self.fleet
        events.append(Self.crash("z", version: "3.10.0", date: "2024-05-07T12:00:00Z", bundle: "com.other.app"))
        let harbor = Self.summary(events, filter: FleetFilter(app: "io.tidewater.harbor"))
        #expect(harbor.crashes.total == 10)
        #expect(!harbor.crashes.groups.contains { $0.signature == "z" })
        let byProcess = Self.summary(events, filter: FleetFilter(app: "Harbor"))
        #expect(byProcess.crashes.total == 11)
        let newest = Self.summary(events, filter: FleetFilter(version: "3.10.0"))
        #expect(newest.crashes.total == 6)
        #expect(newest.crashes.groups.map(\.signature) == ["c", "a", "b", "z"])
        let build = Self.summary(events, filter: FleetFilter(app: "io.tidewater.harbor", version: "b3.9.0"))
        #expect(build.crashes.groups.map(\.count) == [2, 1])
    }

    @Test func versionsOrderAsPeopleReadThem() {
        let sorted = ["1.10", "1.9", "1.9.1", "2.0 (139)", "2.0 (140)", "1.0", "01.2", "1.2a", "1.2"].sorted(
            by: VersionOrder.precedes
        )
        #expect(sorted == ["1.0", "01.2", "1.2", "1.2a", "1.9", "1.9.1", "1.10", "2.0 (139)", "2.0 (140)"])
        let huge = String(repeating: "9", count: 200)
        #expect(VersionOrder.precedes("1." + huge, "1.1" + huge))
        #expect(!VersionOrder.precedes("1.0", "1.0"))
    }

    @Test func dayArithmeticRoundTrips() {
        for day in [-1, 0, 1, 19_844, 2_932_896] {
            #expect(DayCounts.day(isoDate: DayCounts.isoDate(day: day)) == day)
        }
        #expect(DayCounts.isoDate(day: -1) == "1969-12-31")
        #expect(DayCounts.isoDate(day: 19_844) == "2024-05-01")
        #expect(DayCounts.day(ofSecondsSince1970: .infinity) == nil)
        #expect(DayCounts.day(ofSecondsSince1970: -1) == -1)
    }
}

/// A seeded generator, so shuffles are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
