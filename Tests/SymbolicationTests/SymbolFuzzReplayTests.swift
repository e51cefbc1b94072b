import FuzzProperties
import FuzzReplaySupport
import Testing

@testable import Symbolication

/// Replays the fail cases and seeds of `FuzzDWARFLine`, `FuzzSwiftDemangle` and `FuzzCxxDemangle` through the
/// properties the harnesses check, and checks the seeds are what they claim to be.
@Suite struct SymbolFuzzReplayTests {
    @Test func lineTableFailCasesAndSeedsKeepTheProperties() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzDWARFLine") {
            FuzzReplayInputs.expect(FuzzChecks.dwarfLine(bytes), name)
        }
    }

    /// Every seed's tables are found and read, and their rows answer lookups with a line; only the seed of two
    /// headers over one program (issue 38's N2 at its smallest) has its second header refused.
    @Test func lineTableSeedsAreWholeTables() throws {
        let expectedTables = ["two-tables-v4-v5": 2, "two-headers-one-program": 2]
        let expectedRefusals = ["two-headers-one-program": 1]
        for (name, bytes) in try FuzzReplayInputs.seeds("FuzzDWARFLine") {
            let offsets = FuzzChecks.lineTableOffsets(bytes)
            // The chain of tables first; the scan may add offsets that merely look like headers.
            #expect(offsets.first == 0, "\(name)")
            #expect(offsets.count >= expectedTables[name, default: 1], "\(name): tables at \(offsets)")
            let (info, abbrev) = FuzzChecks.lineTableUnits(offsets)
            let index = try DWARFIndex(DWARFSections(info: info, abbrev: abbrev, line: bytes))
            #expect(index.issues.count == expectedRefusals[name, default: 0], "\(name): \(index.issues)")
            #expect(index.issues.allSatisfy { $0.code == .limitExceeded }, "\(name): \(index.issues)")
            #expect(index.lineRecordCount > 4, "\(name)")
        }
    }

    /// The fixture's own `.debug_line` is a seed, byte for byte.
    @Test func lineTableSeedIsTheFixturesSection() throws {
        let seed = try #require(try FuzzReplayInputs.load("FuzzDWARFLine").first { $0.0 == "demo-arm64" }?.1)
        let slice = try #require(try MachOFile(path: MachOFixtures.dsym("Demo-arm64")).slices.first)
        #expect(try slice.dwarfSections().line == seed)
    }

    @Test(arguments: [("FuzzSwiftDemangle", FuzzChecks.Mangling.swift), ("FuzzCxxDemangle", .cxx)])
    func demanglerFailCasesAndSeedsKeepThePropertiesAndSeedsDemangle(
        target: String,
        mangling: FuzzChecks.Mangling
    ) throws {
        for (name, bytes) in try FuzzReplayInputs.load(target) {
            FuzzReplayInputs.expect(FuzzChecks.demangle(bytes, as: mangling), name)
        }
        for (name, bytes) in try FuzzReplayInputs.seeds(target) {
            #expect(Demangler.demangle(String(decoding: bytes, as: UTF8.self), style: .full) != nil, "\(name)")
        }
    }
}
