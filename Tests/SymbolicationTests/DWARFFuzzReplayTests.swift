import FuzzProperties
import FuzzReplaySupport
import Testing

@testable import Symbolication

/// Replays `FuzzDWARF`'s fail cases and seeds through the properties the harness checks.
@Suite struct DWARFFuzzReplayTests {
    @Test func failCasesAndSeedsKeepTheProperties() throws {
        for (name, bytes) in try FuzzReplayInputs.load("FuzzDWARF") {
            FuzzReplayInputs.expect(FuzzChecks.dwarf(bytes), name)
            #expect(FuzzChecks.dwarfInput(FuzzChecks.dwarfSections(bytes)) == bytes || bytes.count < 36, "\(name)")
        }
    }

    /// The seeds are the fixtures' own sections: a regenerated fixture without regenerated seeds fails here.
    @Test(arguments: ["arm64", "x86_64"])
    func seedsAreTheFixturesSections(arch: String) throws {
        let seeds = try FuzzReplayInputs.load("FuzzDWARF")
        let seed = try #require(seeds.first { $0.0 == "demo-\(arch)" }?.1)
        let file = try MachOFile(path: MachOFixtures.dsym("Demo-\(arch)"))
        let slice = try #require(file.slices.first)
        var sections = try slice.dwarfSections()
        sections.aranges = []
        #expect(FuzzChecks.dwarfSections(seed) == sections)
        let index = try DWARFIndex(FuzzChecks.dwarfSections(seed))
        #expect(index.functionCount > 10)
        #expect(index.issues.isEmpty)
    }
}
