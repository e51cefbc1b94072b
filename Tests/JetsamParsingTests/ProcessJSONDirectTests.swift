import Foundation
import FuzzReplaySupport
import Testing

@testable import APMInspectCore
@testable import JetsamParsing

/// Processes write their JSON themselves (`JSONDirectEncodable`): what they write must be exactly what their
/// synthesised `encode(to:)` writes through the reference tree writer, in both layouts and at any depth.
@Suite struct ProcessJSONDirectTests {

    @Test func corpusProcessesWriteAsTheirCodableForm() throws {
        var processes = 0
        var withPages = 0
        for name in CorpusSupport.jetsamFiles {
            guard let result = try? JetsamParser().parse(CorpusSupport.bytes(name)) else { continue }
            let list = result.event.processes
            processes += list.count
            withPages += list.filter { $0.physicalPages != nil }.count
            #expect(directEncodingMismatches(result.event) == [], "\(name)")
            #expect(
                directEncodingMismatches(NestedHolder(single: list.first, list: list, nested: [list, []])) == [],
                "\(name) processes"
            )
        }
        // The corpus must reach the members under test (no corpus process has unknown keys: the random test
        // writes them).
        #expect(processes >= 100)
        #expect(withPages >= 1)
    }

    @Test func randomProcessesWriteAsTheirCodableForm() {
        var random = SeededGenerator(seed: 17)
        func next() -> UInt64 { random.next() }
        func some<Value>(_ value: Value) -> Value? { next() & 1 == 0 ? value : nil }
        let texts = ["", "launchd", "com.apple.é", "e\u{301}", "tab\t", "\"q\"", "💥"]
        func text() -> String { texts[Int(next() % UInt64(texts.count))] }
        let doubles: [Double] = [0, -0.0, 0.5, 12.345, 1e-7, 1e21, .nan, .infinity, 123_456.789]
        let kept: [JSONValue] = [
            .object([.init(key: "b", value: .number("1.50")), .init(key: "a", value: .array([.null, .bool(true)]))]),
            .object([]), .array([]), .number("-0"), .string("x"),
        ]
        for round in 0..<400 {
            let process = JetsamEvent.Process(
                pid: some(Int64(bitPattern: next())),
                name: some(text()),
                uuid: some(text()),
                states: (0..<Int(next() % 3)).map { _ in text() },
                rpages: some(next()),
                lifetimeMax: some(next() % 1000),
                purgeable: some(0),
                fds: some(next() % 100),
                cpuTime: some(doubles[Int(next() % UInt64(doubles.count))]),
                reason: some(text()),
                age: some(next()),
                killDelta: some(next()),
                genCount: some(next()),
                idleDelta: some(next()),
                coalition: some(next()),
                pageSpike: some(next()),
                priority: some(Int64(next() % 200) - 100),
                normalizedPriority: some(-1),
                priorityBand: some(text()),
                physicalPages: some(
                    JetsamEvent.PhysicalPages(
                        internal: some((0..<Int(next() % 3)).map { _ in next() }),
                        frozenToSwapPages: some(next()),
                        unknownKeys: some(kept[Int(next() % UInt64(kept.count))])
                    )
                ),
                freezeSkipReason: some(text()),
                memRegions: some(next()),
                csFlags: some(next()),
                csTrustLevel: some(next()),
                neuralPages: some(next()),
                role: ProcessRole.allCases[Int(next() % UInt64(ProcessRole.allCases.count))],
                footprintBytes: some(next()),
                limitMB: some(next() % 10_000),
                unknownKeys: some(kept[Int(next() % UInt64(kept.count))])
            )
            #expect(directEncodingMismatches(process) == [], "process \(round)")
        }
    }

    /// The event's own members, present or absent at random, around a few processes: the top level writes itself
    /// too, with the memory status and RAM estimate through their `encode(to:)`.
    @Test func randomEventsWriteAsTheirCodableForm() {
        var random = SeededGenerator(seed: 29)
        func next() -> UInt64 { random.next() }
        func some<Value>(_ value: Value) -> Value? { next() & 1 == 0 ? value : nil }
        let texts = ["", "iPhone14,2", "é", "a\"b\n", "💥"]
        func text() -> String { texts[Int(next() % UInt64(texts.count))] }
        let kept: [JSONValue] = [
            .object([.init(key: "z", value: .number("2")), .init(key: "a", value: .string("x"))]), .array([]),
        ]
        let platforms: [OSVersion.Platform] = [.iOS, .macOS, .unknown]
        let scales: [PriorityScale] = [.legacy, .modern]
        for round in 0..<300 {
            var event = JetsamEvent(
                bugType: some(text()),
                incidentID: some(text()),
                crashReporterKey: some(text()),
                product: some(text()),
                deviceName: some(text()),
                osName: some(text()),
                osVersion: some(text()),
                osBuild: some(text()),
                isBetaBuild: next() & 1 == 0,
                platform: platforms[Int(next() % 3)],
                kernel: some(text()),
                xnuVersion: some(text()),
                isModifiedKernel: next() & 1 == 0,
                date: some(AppleTimestamp("2024-01-18 14:02:51.00 -0500")).flatMap { $0 },
                timeDelta: some(next()),
                largestProcess: some(text()),
                genCounter: some(next()),
                codeSigningMonitor: some(Int64(bitPattern: next())),
                pageSize: some(16_384),
                pageSizeSource: some(text()),
                memoryStatus: some(
                    JetsamEvent.MemoryStatus(
                        pageSize: some(4_096),
                        compressorSize: some(next()),
                        memoryPages: some(JetsamEvent.MemoryPages(active: some(next()), free: some(7))),
                        largestZone: some(text()),
                        unknownKeys: some(kept[Int(next() % 2)])
                    )
                ),
                ram: some(
                    JetsamEvent.RAMEstimate(
                        estimatedMB: some(5_871.25),
                        nominalMB: some(6_144),
                        nominalOptionsMB: some([4_096, 6_144]),
                        resolvedByEstimate: next() & 1 == 0
                    )
                ),
                priorityScale: some(scales[Int(next() % 2)]),
                processes: (0..<Int(next() % 3)).map { _ in
                    JetsamEvent.Process(pid: some(Int64(next() % 1000)), name: some(text()), reason: some(text()))
                },
                notes: some((0..<Int(next() % 3)).map { _ in text() }),
                eventReason: some(text()),
                eventCode: some(text()),
                isPartial: next() & 1 == 0,
                unknownKeys: some(kept[Int(next() % 2)])
            )
            if next() & 1 == 0 { event.header = IPSHeader(bugType: some("298"), name: some(text())) }
            let list = [event, JetsamEvent()]
            #expect(
                directEncodingMismatches(NestedHolder(single: event, list: list, nested: [list, []])) == [],
                "event \(round)"
            )
        }
    }
}
