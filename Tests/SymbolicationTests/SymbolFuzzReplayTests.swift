import FuzzChecks
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

    /// Every seed's tables are found and read without an issue, and their rows answer lookups with a line.
    @Test func lineTableSeedsAreWholeTables() throws {
        let expectedTables = ["two-tables-v4-v5": 2]
        for (name, bytes) in try FuzzReplayInputs.load("FuzzDWARFLine") {
            let offsets = FuzzChecks.lineTableOffsets(bytes)
            // The chain of tables first; the scan may add offsets that merely look like headers.
            #expect(offsets.first == 0, "\(name)")
            #expect(offsets.count >= expectedTables[name, default: 1], "\(name): tables at \(offsets)")
            let (info, abbrev) = FuzzChecks.lineTableUnits(offsets)
            let index = try DWARFIndex(DWARFSections(info: info, abbrev: abbrev, line: bytes))
            #expect(index.issues.isEmpty, "\(name): \(index.issues)")
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
            #expect(Demangler.demangle(String(decoding: bytes, as: UTF8.self), style: .full) != nil, "\(name)")
        }
    }
}
