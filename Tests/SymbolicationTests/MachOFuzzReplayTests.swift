import Foundation
import FuzzProperties
import FuzzReplaySupport
import Testing

@testable import Symbolication

/// Runs the `FuzzMachO` properties (``FuzzChecks/machO(_:)``) without sanitizers over the fixtures, the target's
/// fail cases (`Fuzz/FailCases/FuzzMachO/`, once there are any), synthetic files of every width and byte order,
/// and damaged copies of the fixtures generated here.
@Suite struct MachOFuzzReplayTests {
    static func fixtures() throws -> [(String, [UInt8])] {
        var inputs: [(String, [UInt8])] = []
        for name in ["Demo-arm64", "Demo-x86_64", "Demo-fat"] {
            inputs.append((name, try MachOFile.readFile(MachOFixtures.binary(name))))
            inputs.append((name + ".dSYM", try MachOFile.readFile(MachOFixtures.dsym(name))))
        }
        return inputs
    }

    @Test func theFixturesAndTheFailCasesHoldEveryProperty() throws {
        var inputs = try Self.fixtures()
        let failCases = FuzzReplayInputs.root.appendingPathComponent("Fuzz/FailCases/FuzzMachO")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: failCases.path)) ?? []
        where !name.hasSuffix(".md") && name != "open" {
            inputs.append((name, try [UInt8](Data(contentsOf: failCases.appendingPathComponent(name)))))
        }
        for (is64Bit, littleEndian) in [(true, true), (false, true), (true, false), (false, false)] {
            var builder = SyntheticMachO(is64Bit: is64Bit, littleEndian: littleEndian)
            builder.dwarf = [("debug_info", [1, 2, 3]), ("debug_abbrev", [0])]
            let bytes = builder.build(symbols: [
                .init(name: "_a", value: 0x4000), .init(name: "_$s1A1fyyF", value: 0x4020),
            ])
            inputs.append(("synthetic-\(is64Bit)-\(littleEndian)", bytes))
        }
        #expect(inputs.count >= 10)
        for (name, bytes) in inputs {
            #expect(try MachOFile(bytes: bytes).slices.isEmpty == false, "\(name)")
            FuzzReplayInputs.expect(FuzzChecks.machO(bytes), name)
        }
    }

    @Test func damagedCopiesOfTheFixturesHoldEveryProperty() throws {
        var generator = SplitMix(seed: 0x4D61_6368_4F21)
        for (name, original) in try Self.fixtures() {
            // Words overwritten with values a reader must bound: zero, all ones, the file size, small counts.
            for round in 0..<150 {
                var bytes = original
                for _ in 0..<(1 + Int(generator.next() % 4)) {
                    let limit = min(bytes.count - 4, 4096)
                    let at = Int(generator.next() % UInt64(limit)) & ~3
                    let values: [UInt32] = [0, .max, UInt32(bytes.count), UInt32(generator.next() % 64), 0x8000_0000]
                    let value = values[Int(generator.next() % UInt64(values.count))]
                    withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(at..<(at + 4), with: $0) }
                }
                FuzzReplayInputs.expect(FuzzChecks.machO(bytes), "\(name) damaged #\(round)")
            }
            for cut in stride(from: 0, to: original.count, by: max(1, original.count / 64)) {
                FuzzReplayInputs.expect(FuzzChecks.machO(Array(original[0..<cut])), "\(name) cut at \(cut)")
            }
        }
    }
}

/// A small deterministic generator, so a failing damaged input can be made again.
struct SplitMix {
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
