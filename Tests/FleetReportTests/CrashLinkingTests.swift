import APMInspectCore
import FleetReport
import Foundation
import FuzzReplaySupport
import ReportInspection
import ReportRendering
import Testing

/// Cross-source linking of one crash that three reporters sent.
///
/// One crash of Harbor 3.4.0 seen by Apple (`Corpus/crash`'s 309 report, pid 4187, captured
/// 2024-01-18 14:02:49 -0500 on an iPhone15,3), by KSCrash (a report crafted in KSCrash 2.x's JSON shape, its frames
/// symbolicated on the device) and by MetricKit (a crafted `MXDiagnosticPayload` whose unsymbolicated call tree
/// names the same images and offsets, its payload covering that day). Image addresses, UUIDs and offsets are those
/// of the 309 report; every other value is invented.
@Suite struct CrashLinkingTests {
    static let ips = "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"
    static let harborUUID = "BA653F7D-D052-38F8-BABE-C9CB4861DD33"

    /// (name, image_addr, size, UUID) of the images the crashed thread's frames are in.
    static let images: [(String, UInt64, UInt64, String)] = [
        ("Harbor", 4_308_647_936, 3_833_856, harborUUID),
        ("libsystem_kernel.dylib", 8_016_510_976, 233_472, "2C820E76-33CB-3EB2-964E-F34357FE94E9"),
        ("libsystem_pthread.dylib", 8_555_577_344, 49_152, "F8F42E4E-0A1D-3607-9D51-90081C41032C"),
        ("libsystem_c.dylib", 6_935_035_904, 524_288, "E71B284B-7B25-3F84-ABDB-234D27DAA1A0"),
        ("dyld", 7_205_699_584, 548_864, "6EBABC57-AC85-3E0F-B493-39DA91D6B03E"),
    ]

    /// The crashed thread of the 309 report, top first: (image index, offset, symbol).
    static let abortFrames: [(Int, UInt64, String)] = [
        (1, 99972, "__pthread_kill"), (2, 30856, "pthread_kill"), (3, 417_108, "abort"),
        (0, 1_248_816, "main"), (4, 526_992, "start"),
    ]

    /// Another crash: a bad access in Harbor's own code.
    static let badAccessFrames: [(Int, UInt64, String)] = [
        (0, 402_112, "$s6Harbor11TideChartV6redrawyyF"), (0, 1_248_816, "main"), (4, 526_992, "start"),
    ]

    static func kscrash(
        pid: Int = 4187,
        timestamp: String = "2024-01-18T19:02:50Z",
        frames: [(Int, UInt64, String)] = abortFrames,
        signal: (Int, String, Int, String) = (10, "EXC_CRASH", 6, "SIGABRT")
    ) -> [UInt8] {
        let imagesJSON = images.map { name, base, size, uuid -> String in
            let path =
                name == "Harbor"
                ? "/private/var/containers/Bundle/Application/8160E36C-974F-4EC0-9935-E885FADA4EBA/Harbor.app/Harbor"
                : "/usr/lib/system/" + name
            return
                #"{"image_addr":\#(base),"image_vmaddr":0,"image_size":\#(size),"name":"\#(path)","uuid":"\#(uuid)","cpu_type":16777228,"cpu_subtype":2}"#
        }.joined(separator: ",")
        let framesJSON = frames.map { image, offset, symbol -> String in
            let (name, base, _, _) = images[image]
            return
                #"{"instruction_addr":\#(base + offset),"object_addr":\#(base),"object_name":"\#(name)","symbol_name":"\#(symbol)","symbol_addr":\#(base + offset - 8)}"#
        }.joined(separator: ",")
        let json: String = #"""
            {"report":{"version":"3.4.0","id":"C41E5B27-9D03-4F6A-8B12-7E5D2A9C3F60","process_name":"Harbor","timestamp":"\#(timestamp)","type":"standard"},
            "binary_images":[\#(imagesJSON)],
            "process":{},
            "system":{"system_name":"iOS","system_version":"17.2.1","machine":"iPhone15,3","model":"D74AP","os_version":"21C66",
            "CFBundleExecutable":"Harbor","CFBundleIdentifier":"io.tidewater.harbor","CFBundleName":"Harbor","CFBundleVersion":"812",
            "CFBundleShortVersionString":"3.4.0","app_uuid":"\#(harborUUID)","cpu_arch":"arm64","process_name":"Harbor",
            "process_id":\#(pid),"parent_process_id":1,"parent_process_name":"launchd","build_type":"app store"},
            "crash":{"error":{"mach":{"exception":\#(signal.0),"exception_name":"\#(signal.1)","code":0,"subcode":0},
            "signal":{"signal":\#(signal.2),"name":"\#(signal.3)","code":0},"address":0,"type":"signal"},
            "threads":[{"backtrace":{"contents":[\#(framesJSON)],"skipped":0},"index":0,"dispatch_queue":"com.apple.main-thread",
            "crashed":true,"current_thread":false}]}}
            """#
        return Array(json.utf8)
    }

    /// A legacy `MXDiagnosticPayload` with one crash diagnostic, its call tree the abort's frames.
    static func metricKit(begin: String = "2024-01-18 00:00:00 +0000", end: String = "2024-01-19 00:00:00 +0000")
        -> [UInt8]
    {
        var tree = ""
        for (image, offset, _) in abortFrames.reversed() {
            let (name, base, _, uuid) = images[image]
            let sub: String = tree.isEmpty ? "" : #","subFrames":[\#(tree)]"#
            tree = String(
                #"{"binaryUUID":"\#(uuid)","offsetIntoBinaryTextSegment":\#(offset),"sampleCount":1,"binaryName":"\#(name)","address":\#(base + offset)\#(sub)}"#
            )
        }
        let json: String = #"""
            {"timeStampBegin":"\#(begin)","timeStampEnd":"\#(end)","crashDiagnostics":[{"version":"1.0.0",
            "callStackTree":{"callStacks":[{"threadAttributed":true,"callStackRootFrames":[\#(tree)]}],"callStackPerThread":true},
            "diagnosticMetaData":{"appBuildVersion":"812","appVersion":"3.4.0","regionFormat":"US","exceptionType":10,
            "exceptionCode":0,"signal":6,"osVersion":"iPhone OS 17.2.1 (21C66)","deviceType":"iPhone15,3",
            "platformArchitecture":"arm64e","bundleIdentifier":"io.tidewater.harbor","pid":4187,
            "terminationReason":"Namespace SIGNAL, Code 6 Abort trap: 6"}}]}
            """#
        return Array(json.utf8)
    }

    static func corpus(_ path: String) throws -> [UInt8] {
        try FileReading.contents(atPath: FuzzReplayInputs.root.appendingPathComponent(path).path)
    }

    static func events(_ inputs: [(String, [UInt8])]) -> [FleetEvent] {
        inputs.map { ReportInspector().inspect(bytes: $1, path: $0).fleetEvent }
    }

    static func summary(_ events: [FleetEvent]) -> FleetSummary {
        var aggregator = FleetAggregator()
        for event in events { aggregator.add(event) }
        return aggregator.summary()
    }

    static func sameCrash() throws -> [(String, [UInt8])] {
        [
            (ips, try corpus(ips)),
            ("crafted/Harbor-kscrash.json", kscrash()),
            ("crafted/MXDiagnosticPayload-2024-01-18.json", metricKit()),
        ]
    }

    @Test func oneCrashFromThreeReportersCountsOnceWithItsThreeSources() throws {
        let events = Self.events(try Self.sameCrash())
        #expect(events.map { $0.crashes.count } == [1, 1, 1])
        // Without linking these are three groups: the MetricKit copy's signature is made of offsets.
        #expect(Set(events.flatMap { $0.crashes.map(\.signature) }).count >= 2)
        let summary = Self.summary(events)
        #expect(summary.crashes.total == 1)
        #expect(summary.categories.crashes == 1)
        #expect(summary.crashes.reports == 3)
        #expect(summary.crashes.duplicatesLinked == 2)
        #expect(summary.crashes.linkedCrashes == 1)
        let group = try #require(summary.crashes.groups.first)
        #expect(summary.crashes.groups.count == 1)
        #expect(group.count == 1)
        #expect(group.sources == ["crashReport": 1, "kscrash": 1, "metrickit": 1])
        #expect(group.duplicatesLinked == 2 && group.linkedCrashes == 1)
        #expect(group.files.count == 3)
        // Counted under the richest report's signature: a symbolicated one, never MetricKit's offsets.
        let metricKitSignature = try #require(events[2].crashes.first?.signature)
        #expect(group.signature != metricKitSignature)
        #expect(group.appVersions.values.map(\.value) == ["3.4.0"])
    }

    @Test func twoCrashesOfOneAppInOneMinuteWithOtherTopFramesDoNotLink() throws {
        let inputs = [
            (Self.ips, try Self.corpus(Self.ips)),
            // Same app, device, pid and minute: only the crashed thread's top frames tell them apart.
            ("crafted/Harbor-badaccess.json", Self.kscrash(frames: Self.badAccessFrames)),
        ]
        let summary = Self.summary(Self.events(inputs))
        #expect(summary.crashes.total == 2)
        #expect(summary.crashes.duplicatesLinked == 0)
        #expect(summary.crashes.groups.allSatisfy { $0.duplicatesLinked == 0 && $0.count == 1 })
    }

    @Test func aMetricKitDiagnosticOutsideThePayloadRangeDoesNotLink() throws {
        let inputs = [
            (Self.ips, try Self.corpus(Self.ips)),
            (
                "crafted/MXDiagnosticPayload-2024-01-16.json",
                Self.metricKit(begin: "2024-01-16 00:00:00 +0000", end: "2024-01-17 00:00:00 +0000")
            ),
        ]
        let summary = Self.summary(Self.events(inputs))
        #expect(summary.crashes.total == 2)
        #expect(summary.crashes.duplicatesLinked == 0)
        #expect(summary.crashes.groups.count == 2)
    }

    @Test func aCrashMinutesApartFromAnotherDoesNotLink() throws {
        let inputs = [
            (Self.ips, try Self.corpus(Self.ips)),
            ("crafted/Harbor-later.json", Self.kscrash(timestamp: "2024-01-18T19:05:50Z")),
        ]
        let summary = Self.summary(Self.events(inputs))
        #expect(summary.crashes.total == 2)
        #expect(summary.crashes.duplicatesLinked == 0)
    }

    @Test func theReportDoesNotDependOnTheOrderOfTheReports() throws {
        let inputs =
            try Self.sameCrash() + [
                ("crafted/Harbor-badaccess.json", Self.kscrash(frames: Self.badAccessFrames)),
                (
                    "crafted/MXDiagnosticPayload-2024-01-16.json",
                    Self.metricKit(begin: "2024-01-16 00:00:00 +0000", end: "2024-01-17 00:00:00 +0000")
                ),
                // A copy of the KSCrash report (its report id, the incident id, is the same): one crash too.
                ("crafted/Harbor-kscrash-copy.json", Self.kscrash()),
            ]
        let events = Self.events(inputs)
        let expected = try JSONOutput.encode(Self.summary(events), pretty: true)
        #expect(expected.contains("\"duplicatesLinked\" : 3"))
        var checked = 0
        for permutation in Self.permutations(Array(events.indices)) {
            let json = try JSONOutput.encode(Self.summary(permutation.map { events[$0] }), pretty: true)
            #expect(json == expected)
            checked += 1
        }
        #expect(checked == 720)
    }

    @Test func theNDJSONOfAScanLinksAsTheFilesDo() throws {
        let inputs = try Self.sameCrash()
        var direct = FleetAggregator()
        var replayed = FleetAggregator()
        for (path, bytes) in inputs {
            let inspection = ReportInspector().inspect(bytes: bytes, path: path)
            direct.add(inspection.fleetEvent)
            let line = try JSONOutput.encode(inspection, pretty: false)
            replayed.add(try FleetEnvelope.decode(line: Array(line.utf8)), fromNDJSON: true)
        }
        var left = direct.summary()
        let right = replayed.summary()
        left.inputs.ndjsonEnvelopes = right.inputs.ndjsonEnvelopes
        #expect(left == right)
        #expect(right.crashes.total == 1 && right.crashes.duplicatesLinked == 2)
    }

    @Test func theTextAndHTMLSayWhatWasLinked() throws {
        let summary = Self.summary(Self.events(try Self.sameCrash()))
        let text = FleetReportTextRenderer.text(summary)
        #expect(text.contains("2 report(s) linked to another reporter's report of the same crash (1 crash(es))"))
        #expect(text.contains("sources: crashReport 1, kscrash 1, metrickit 1"))
        let html = FleetReportHTMLRenderer.render(summary)
        #expect(html.contains("id=\"crash-duplicates-linked\" data-count=\"2\""))
    }

    static func permutations(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        var result: [[Int]] = []
        for (index, item) in items.enumerated() {
            var rest = items
            rest.remove(at: index)
            for tail in permutations(rest) { result.append([item] + tail) }
        }
        return result
    }
}
