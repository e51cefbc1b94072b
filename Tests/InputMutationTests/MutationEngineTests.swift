import APMInspectCore
import Foundation
import InputMutation
import Testing

@Suite("MutationEngine")
struct MutationEngineTests {
    private static func inputs() throws -> [MutationInput] {
        [
            MutationInput(bytes: Fixtures.ips), MutationInput(bytes: Fixtures.crashText),
            MutationInput(bytes: Fixtures.pcap), MutationInput(bytes: Fixtures.pcapng),
            MutationInput(bytes: Fixtures.tar),
            MutationInput(bytes: try Fixtures.corpus("powerlog/ios15_offset-change_D16AP_19H12.PLSQL")),
            MutationInput(
                bytes: try Fixtures.corpus(
                    "sysdiagnose/sysdiagnose_2024.03.01_10-20-30-0800_iPhone-OS_iPhone_21D61.tar.gz"
                )
            ),
            MutationInput(bytes: try Fixtures.corpus("http/chrome_h2_ssl-inside-connect.zhar")),
            MutationInput(bytes: Array("plain text\nsecond line\n".utf8)),
            // DWARF: a dSYM (DWARF 5, one table) and a bare line section of two tables, DWARF 4 and 5.
            MutationInput(bytes: try Fixtures.machO("Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64")),
            MutationInput(
                bytes: [UInt8](
                    try Data(
                        contentsOf: Fixtures.repository.appendingPathComponent(
                            "Fuzz/Seeds/FuzzDWARFLine/two-tables-v4-v5"
                        )
                    )
                ),
                family: .dwarfLine
            ),
        ]
    }

    @Test("a seed replays the same mutations; another seed gives others")
    func deterministic() throws {
        let engine = MutationEngine()
        for input in try Self.inputs() {
            let run = { (seed: UInt64) -> [Mutation] in
                (0..<40).map { iteration in
                    var rng = SplitMix64.forIteration(UInt64(iteration), seed: seed)
                    return engine.mutate(input, donors: [input], rng: &rng)
                }
            }
            let first = run(1)
            #expect(first == run(1), "family \(input.family)")
            #expect(first != run(2), "family \(input.family)")
        }
    }

    @Test("every mutation changes the input and stays within the size limit")
    func alwaysChanged() throws {
        let engine = MutationEngine(maxOutputBytes: 1 << 20)
        for input in try Self.inputs() {
            for iteration in 0..<200 {
                var rng = SplitMix64.forIteration(UInt64(iteration), seed: 9)
                let mutation = engine.mutate(input, rng: &rng)
                #expect(mutation.bytes != input.bytes)
                #expect(mutation.bytes.count <= engine.maxOutputBytes)
                #expect(!mutation.steps.isEmpty)
            }
        }
        var rng = SplitMix64(seed: 3)
        // An empty input can only grow.
        #expect(!engine.mutate(MutationInput(bytes: []), rng: &rng).bytes.isEmpty)
    }

    @Test("each mutator applies to some family, changes its input and keeps the size bound")
    func eachMutator() throws {
        let engine = MutationEngine(maxOutputBytes: 1 << 20)
        let inputs = try Self.inputs()
        for kind in MutatorKind.allCases {
            var applied = 0
            for input in inputs where engine.applicable(to: input, donors: inputs).contains(kind) {
                for seed in 0..<30 {
                    var rng = SplitMix64(seed: UInt64(seed))
                    guard let (bytes, note) = engine.apply(kind, to: input, donors: inputs, rng: &rng) else { continue }
                    applied += 1
                    #expect(bytes != input.bytes, "\(kind)")
                    #expect(bytes.count <= engine.maxOutputBytes, "\(kind)")
                    #expect(note.hasPrefix(kind.rawValue + "@"))
                }
            }
            #expect(applied > 0, "\(kind.rawValue) never applied")
        }
    }

    @Test("structure-aware mutators are offered only where the family has the structure")
    func familyMutators() throws {
        let engine = MutationEngine()
        let json = engine.applicable(to: MutationInput(bytes: Fixtures.ips))
        #expect(json.contains(.jsonNumberAtLimit) && json.contains(.jsonRenameKey))
        #expect(!json.contains(.octalField) && !json.contains(.compressedContent))
        let tar = engine.applicable(to: MutationInput(bytes: Fixtures.tar))
        #expect(tar.contains(.octalField) && !tar.contains(.jsonReplaceValue))
        let crash = engine.applicable(to: MutationInput(bytes: Fixtures.crashText))
        #expect(crash.contains(.textFieldValue) && crash.contains(.textFrameColumn))
    }

    @Test("a number at its limit replaces exactly one JSON number")
    func numberAtLimit() {
        let input = MutationInput(bytes: Fixtures.ips)
        var rng = SplitMix64(seed: 11)
        guard let (bytes, _) = MutationEngine().apply(.jsonNumberAtLimit, to: input, rng: &rng) else {
            Issue.record("no number mutated")
            return
        }
        let before = input.map.spans(.jsonNumber).map { Array(Fixtures.ips[$0.range]) }
        let after = MutationInput(bytes: bytes).map.spans(.jsonNumber).map { Array(bytes[$0.range]) }
        #expect(before.count == after.count)
        #expect(zip(before, after).filter { $0 != $1 }.count == 1)
    }

    @Test("compressed content is mutated inside and wrapped again with valid checksums")
    func compressedContent() throws {
        let original = try Fixtures.corpus(
            "sysdiagnose/sysdiagnose_2024.03.01_10-20-30-0800_iPhone-OS_iPhone_21D61.tar.gz"
        )
        let inner = try Inflate.decompress(original).bytes
        var rng = SplitMix64(seed: 5)
        let input = MutationInput(bytes: original)
        let mutated = try #require(MutationEngine().apply(.compressedContent, to: input, rng: &rng))
        let inflated = try Inflate.decompress(mutated.bytes)
        #expect(!inflated.isTruncated)
        #expect(inflated.bytes != inner)
        #expect(InputFamily.sniff(mutated.bytes) == .gzip)
    }
}
