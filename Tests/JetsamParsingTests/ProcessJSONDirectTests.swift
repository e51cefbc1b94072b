import Foundation
import Testing

@testable import APMInspectCore
@testable import JetsamParsing

/// Processes write their JSON themselves (`JSONDirectEncodable`): what they write must be exactly what their
/// synthesised `encode(to:)` writes through the reference tree writer, in both layouts and at any depth.
@Suite struct ProcessJSONDirectTests {
    private struct Holder<Value: Encodable>: Encodable {
        var single: Value?
        var list: [Value]
        var nested: [[Value]]
    }

    private func expectSame(_ value: some Encodable, _ label: String) {
        for pretty in [false, true] {
            let encoder = SortedJSONEncoder(pretty: pretty)
            for depth in 0...2 {
                let direct = try? encoder.encode(value, depth: depth)
                let reference = try? encoder.encodeThroughTree(value, depth: depth)
                #expect(direct != nil)
                #expect(direct == reference, "\(label) pretty \(pretty) depth \(depth)")
            }
        }
    }

    @Test func corpusProcessesWriteAsTheirCodableForm() throws {
        var processes = 0
        var withPages = 0
        for name in CorpusSupport.jetsamFiles {
            guard let result = try? JetsamParser().parse(CorpusSupport.bytes(name)) else { continue }
            let list = result.event.processes
            processes += list.count
            withPages += list.filter { $0.physicalPages != nil }.count
            expectSame(result.event, name)
            expectSame(Holder(single: list.first, list: list, nested: [list, []]), "\(name) processes")
        }
        // The corpus must reach the members under test (no corpus process has unknown keys: the random test
        // writes them).
        #expect(processes >= 100)
        #expect(withPages >= 1)
    }

    @Test func randomProcessesWriteAsTheirCodableForm() {
        var state: UInt64 = 17
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
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
            expectSame(process, "process \(round)")
        }
    }
}
