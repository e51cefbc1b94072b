import APMInspectCore
import FleetReport
import ReportRendering
import Testing

/// A crash ledger that writes its records out in sorted runs (a threshold of a few hundred bytes makes one run of
/// every few crashes) must link and order the crashes exactly as the ledger that keeps them in memory.
///
/// The crash sets are generated as a fleet sends them: one crash as an Apple report, a KSCrash report and a
/// MetricKit diagnostic (a payload's day-long range, offsets for a signature, sometimes no UUID), `.synced` copies
/// and text translations that share an incident id, crashes of one app seconds apart that only their top frames or
/// pids tell apart, an incident id a tool reused for another exception, undated crashes, rule matches, and
/// non-ASCII names written in two canonically equal ways.
@Suite struct CrashLedgerSpillTests {
    /// A few records a run.
    static let tinyThreshold = 600

    struct App {
        var bundle: String
        var process: String
        var uuids: [String]
    }

    static let apps = [
        App(
            bundle: "io.tidewater.harbor",
            process: "Harbor",
            uuids: ["ba653f7dd05238f8babec9cb4861dd33", "c0ffee00d05238f8babec9cb4861dd34"]
        ),
        App(bundle: "com.example.caf\u{E9}", process: "Caf\u{E9}", uuids: ["0a1b2c3d4e5f60718293a4b5c6d7e8f9"]),
        App(bundle: "org.kelvin.thermo", process: "Thermo\u{212A}", uuids: ["11112222333344445555666677778888"]),
    ]

    static let images = [
        "2c820e7633cb3eb2964ef34357fe94e9", "f8f42e4e0a1d36079d5190081c41032c", "e71b284b7b253f84abdb234d27daa1a0",
    ]

    static func timestamp(_ seconds: Double) -> AppleTimestamp {
        let whole = Int(seconds.rounded(.down))
        let day = whole / 86_400 - 19_740
        return AppleTimestamp(
            secondsSince1970: seconds,
            utcOffsetSeconds: 0,
            date: CivilDate(year: 2024, month: 1, day: max(1, min(28, day))),
            hour: whole % 86_400 / 3_600,
            minute: whole % 3_600 / 60,
            second: whole % 60,
            fractionDigits: ""
        )
    }

    /// One crash as one reporter saw it.
    static func crash(
        source: String,
        app: App,
        uuid: String?,
        process: String?,
        pid: Int64?,
        time: Double?,
        range: (Double, Double)? = nil,
        frames: [(Int, UInt64)],
        exception: String,
        incident: String?,
        symbolicated: Bool,
        grouping: GroupingMatch? = nil
    ) -> FleetEvent.Crash {
        let names = frames.map { "frame_\($0.0)_\($0.1)" }
        let signature =
            symbolicated
            ? names.prefix(2).joined(separator: " > ")
            : frames.map { "0x\(String($0.1, radix: 16))" }.joined(separator: " ")
        var crash = FleetEvent.Crash(
            signature: signature,
            source: source,
            exception: exception,
            topFrame: symbolicated ? names.first : nil,
            context: FleetEvent.Context(
                bundleId: app.bundle,
                process: process,
                appVersion: "3.4.\(frames.first?.0 ?? 0)",
                appBuild: "812",
                osVersion: "17.2.1",
                device: "iPhone15,3",
                date: time.map(timestamp),
                binaryUUID: uuid
            )
        )
        crash.grouping = grouping
        crash.link.pid = pid
        crash.link.incidentId = incident
        if let range {
            crash.link.start = range.0
            crash.link.end = range.1
        } else if let time {
            crash.link.start = time
            crash.link.end = time
        }
        crash.link.frames = frames.prefix(FleetEvent.maxLinkFrames).map { image, offset in
            FleetEvent.CrashLink.Frame(imageUUID: images[image], offset: offset)
        }
        crash.link.symbolicatedFrames = symbolicated ? frames.count : 0
        crash.link.frameCount = frames.count
        crash.link.threadCount = source == "metrickit" ? 1 : 4
        return crash
    }

    /// `count` crashes of a fleet, each as one to four reports, with their files.
    static func fleet(count: Int, seed: UInt64) -> [(crash: FleetEvent.Crash, file: String)] {
        var random = SplitMix(seed: seed)
        var reports: [(crash: FleetEvent.Crash, file: String)] = []
        let rule = GroupingMatch(
            fingerprint: ["thermo"],
            title: "Thermo aborts",
            rule: GroupingMatch.Rule(line: 3, text: "app:org.kelvin.* -> thermo")
        )
        let day = 1_705_536_000.0
        for number in 0..<count {
            let app = apps[Int.random(in: 0..<apps.count, using: &random)]
            let uuid = app.uuids[Int.random(in: 0..<app.uuids.count, using: &random)]
            let pid = Int64.random(in: 4_100...4_110, using: &random)
            // Crashes crowd into a few minutes so that many are candidates of one another.
            let time = day + Double(Int.random(in: 0..<600, using: &random)) + Double(number % 3) * 86_400
            var frames = (0..<3).map { _ in
                (Int.random(in: 0..<images.count, using: &random), UInt64.random(in: 1...4, using: &random) * 4_096)
            }
            if Bool.random(using: &random) { frames[0] = (0, 99_972) }
            let exception = Bool.random(using: &random) ? "EXC_CRASH SIGABRT" : "EXC_BAD_ACCESS SIGSEGV"
            let incident = "\(number)-" + String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 16)
            let grouping = app.bundle.hasPrefix("org.kelvin") && Bool.random(using: &random) ? rule : nil
            let dated = Int.random(in: 0..<20, using: &random) > 0
            let folder = number % 7 == 0 ? "Caf\u{E9}" : "Cafe\u{301}"
            if Int.random(in: 0..<4, using: &random) > 0 {
                let crash = Self.crash(
                    source: "crashReport",
                    app: app,
                    uuid: uuid,
                    process: app.process,
                    pid: pid,
                    time: dated ? time : nil,
                    frames: frames,
                    exception: exception,
                    incident: incident,
                    symbolicated: true,
                    grouping: grouping
                )
                reports.append((crash, "/fleet/\(folder)/apple/\(number).ips"))
                if Int.random(in: 0..<5, using: &random) == 0 {
                    // The `.synced` copy: one incident, one source.
                    reports.append((crash, "/fleet/\(folder)/apple/\(number).ips.synced"))
                }
                if Int.random(in: 0..<8, using: &random) == 0 {
                    // A tool that reused the incident id for another crash: the exception vetoes it.
                    var other = crash
                    other.exception = "EXC_BREAKPOINT SIGTRAP"
                    reports.append((other, "/fleet/\(folder)/reused/\(number).ips"))
                }
            }
            if Int.random(in: 0..<3, using: &random) > 0 {
                let crash = Self.crash(
                    source: "kscrash",
                    app: app,
                    uuid: uuid,
                    process: app.process,
                    pid: pid,
                    time: dated ? time + Double(Int.random(in: 0...40, using: &random)) : nil,
                    frames: frames,
                    exception: exception,
                    incident: "ks-\(incident)",
                    symbolicated: Bool.random(using: &random),
                    grouping: grouping
                )
                reports.append((crash, "/fleet/kscrash/\(number).json"))
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                let begin = (time / 86_400).rounded(.down) * 86_400
                let knowsUUID = Bool.random(using: &random)
                let crash = Self.crash(
                    source: "metrickit",
                    app: app,
                    uuid: knowsUUID ? uuid : nil,
                    process: app.process,
                    pid: Int.random(in: 0..<6, using: &random) == 0 ? nil : pid,
                    time: begin + 86_400,
                    range: (begin, begin + 86_400),
                    frames: frames,
                    exception: exception,
                    incident: nil,
                    symbolicated: false
                )
                reports.append((crash, "/fleet/metrickit/payload-\(number % 40).json"))
            }
            if Int.random(in: 0..<6, using: &random) == 0 {
                // Another crash of the app seconds later: other top frames, or another pid.
                var other = frames
                if Bool.random(using: &random) { other[0] = (2, 777 * 4_096) }
                let crash = Self.crash(
                    source: "kscrash",
                    app: app,
                    uuid: uuid,
                    process: app.process,
                    pid: other[0].0 == 2 ? pid : pid + 100,
                    time: time + 5,
                    frames: other,
                    exception: exception,
                    incident: nil,
                    symbolicated: true
                )
                reports.append((crash, "/fleet/kscrash/\(number)-b.json"))
            }
        }
        return reports
    }

    /// What a crash's reports say, in order, and their indices when `indices`.
    static func describe(_ ledger: CrashLedger, _ order: CrashLedger.CrashOrder, indices: Bool = true) -> [String] {
        var lines: [String] = []
        let complete = ledger.forEachCrash(in: order) { linked in
            let reports = linked.reports.map { report in
                (indices ? "\(report.index) " : "") + "\(report.file) \(report.isRanged) \(report.crash)"
            }
            lines.append(linked.key + "\n  " + reports.joined(separator: "\n  "))
        }
        #expect(complete)
        return lines
    }

    static func ledger(_ reports: [(crash: FleetEvent.Crash, file: String)], threshold: Int) -> CrashLedger {
        var ledger = CrashLedger(spillThreshold: threshold)
        for report in reports { ledger.add(report.crash, file: report.file) }
        return ledger
    }

    @Test(arguments: [(UInt64(1), 300), (2, 700), (3, 1_200)])
    func aLedgerThatSpillsLinksAndOrdersTheCrashesAsInMemory(seed: UInt64, count: Int) {
        let reports = Self.fleet(count: count, seed: seed)
        let memory = Self.ledger(reports, threshold: Int.max)
        let spilled = Self.ledger(reports, threshold: Self.tinyThreshold)
        #expect(!memory.hasSpilled)
        #expect(spilled.hasSpilled)
        #expect(spilled.count == reports.count)
        for order in [CrashLedger.CrashOrder.content, .grouping] {
            let expected = Self.describe(memory, order)
            #expect(Self.describe(spilled, order) == expected)
            // The sets are made to link: many copies join, and vetoes keep some apart.
            #expect(expected.count < reports.count)
            #expect(expected.contains { $0.contains("metrickit") && $0.contains("crashReport") })
        }
        let linked = Self.describe(memory, .content).filter {
            $0.contains("\n  ") && $0.split(separator: "\n").count > 2
        }
        #expect(linked.count > count / 4)
    }

    @Test func theSpilledResultDoesNotDependOnArrivalOrder() {
        let reports = Self.fleet(count: 500, seed: 11)
        let expected = Self.describe(Self.ledger(reports, threshold: Int.max), .grouping, indices: false)
        var random = SplitMix(seed: 5)
        for threshold in [300, 2_000, 40_000] {
            let shuffled = reports.shuffled(using: &random)
            let ledger = Self.ledger(shuffled, threshold: threshold)
            #expect(ledger.hasSpilled)
            #expect(Self.describe(ledger, .grouping, indices: false) == expected)
        }
    }

    @Test func theFleetReportOfALedgerThatSpillsIsTheSame() throws {
        let reports = Self.fleet(count: 900, seed: 21)
        var random = SplitMix(seed: 9)
        func summary(_ reports: [(crash: FleetEvent.Crash, file: String)], threshold: Int?) throws -> String {
            var limits = FleetLimits()
            // Few groups and files, so that the limits' choices are checked too.
            limits.maxGroups = 6
            limits.maxFilesPerGroup = 2
            var aggregator =
                threshold.map { FleetAggregator(limits: limits, crashSpillThreshold: $0) }
                ?? FleetAggregator(limits: limits)
            for (crash, file) in reports {
                aggregator.add(FleetEvent(file: file, kind: crash.source, crashes: [crash]))
            }
            var summary = aggregator.summary()
            summary.generatedAt = ""
            return try JSONOutput.encode(summary, pretty: true)
        }
        let expected = try summary(reports, threshold: nil)
        #expect(expected.contains("\"moreFiles\""))
        #expect(try summary(reports, threshold: Self.tinyThreshold) == expected)
        #expect(try summary(reports.shuffled(using: &random), threshold: 5_000) == expected)
    }

    @Test func aLedgerThatCannotMakeItsFileKeepsTheRecordsInMemory() {
        let reports = Self.fleet(count: 200, seed: 8)
        var ledger = CrashLedger(spillThreshold: Self.tinyThreshold, spillDirectory: "/nonexistent/apm-inspect-spill")
        for report in reports { ledger.add(report.crash, file: report.file) }
        #expect(!ledger.hasSpilled)
        #expect(ledger.count == reports.count)
        #expect(Self.describe(ledger, .content) == Self.describe(Self.ledger(reports, threshold: Int.max), .content))
    }

    @Test func anEmptyOrSmallLedgerNeverTouchesTheDisk() {
        let ledger = Self.ledger(Self.fleet(count: 20, seed: 4), threshold: CrashLedger.defaultSpillThreshold)
        #expect(!ledger.hasSpilled)
        #expect(Self.describe(CrashLedger(spillThreshold: 1), .content).isEmpty)
    }
}
