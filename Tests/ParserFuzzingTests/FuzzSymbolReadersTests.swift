import Foundation
import FuzzReplaySupport
import Testing

@testable import apm_inspect

/// `fuzz` over symbol files: dSYM bundles, zips of them and text files of mangled names reach the DWARF index and
/// both demanglers, and the summary says how many inputs each reader ran on.
@Suite("fuzz: symbol readers")
struct FuzzSymbolReadersTests {
    static let bundle = FuzzMachOTests.fixtures + "Demo-arm64.dSYM"
    static let dwarfFile = bundle + "/Contents/Resources/DWARF/Demo-arm64"
    static let names = """
        $s4Demo14ViewControllerC11viewDidLoadyyFyycfU_
        $s4Demo5clamp_3min3maxxx_xxtSLRzlF
        _ZNSt6vectorIN4demo5FrameESaIS1_EE9push_backERKS1_
        __ZZN4demo8Renderer4drawEvENKUlRKiE_clES2_

        not a mangled name
        """

    @Test("a text file of mangled names goes to both demanglers and passes")
    func nameListReachesBothDemanglers() throws {
        var oracle = FuzzOracle(temporaryFolder: FileManager.default.temporaryDirectory.path)
        let verdict = oracle.check(Array(Self.names.utf8))
        #expect(verdict.kind == FuzzOracle.namesKind)
        #expect(verdict.property == nil, "\(verdict.message ?? "")")
        #expect(verdict.readers == ["cxx-demangler", "swift-demangler"])
        // Prose with one mangled word in many lines is not a name list.
        #expect(DemanglerProbe.nameList(Array("one\ntwo\n$s4Demo1fyyF\nthree\n".utf8)) == nil)
        #expect(FuzzCorpus.label(of: Array(Self.names.utf8)) == "mangled-names")
    }

    @Test("a demangled name past the cut is a finding")
    func aDemangledNamePastTheCutIsAFinding() {
        // A name whose answer is long but legal stays within the cut plus its marker.
        let probe = DemanglerProbe(["_ZN4demo6detail5ClampIiE5applyERKiS4_"])
        #expect(probe.problems.isEmpty)
        #expect(probe.transcript.count == 2)
        #expect(probe.transcript.allSatisfy { $0.contains("demo::detail::Clamp<int>::apply") })
    }

    @Test("a zip of dSYMs gives its Mach-O members as seeds; a dSYM bundle gives its DWARF file")
    func zipsAndBundlesGiveTheirDWARFFiles() throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var zip = ZipArchiveBuilder()
        zip.add("Demo-arm64.dSYM/Contents/Info.plist", Array("<plist/>".utf8))
        zip.add("Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64", try FuzzMachOTests.bytes(Self.dwarfFile))
        let zipPath = folder.path + "/appDsyms.zip"
        try Data(zip.build()).write(to: URL(fileURLWithPath: zipPath))
        let bundlePath = BuiltCommandTests.root.appendingPathComponent(Self.bundle).path
        let (corpus, failures) = FuzzCorpus.load(paths: [zipPath, bundlePath], bundled: false, maxInputBytes: 1 << 20)
        #expect(failures.isEmpty)
        let machO = corpus.entries.filter { $0.label == "mach-o" }.map(\.path)
        #expect(machO.contains(zipPath + ":Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64"), "\(machO)")
        #expect(machO.contains { $0.hasPrefix(bundlePath) && $0.hasSuffix("/DWARF/Demo-arm64") }, "\(machO)")
        #expect(machO.count == 2)
    }

    @Test("a seeded run over a dSYM, a zip of it and a name list reaches every symbol reader and finds nothing")
    func seededRunReachesEveryReader() throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var zip = ZipArchiveBuilder()
        zip.add("Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64", try FuzzMachOTests.bytes(Self.dwarfFile))
        try Data(zip.build()).write(to: folder.appendingPathComponent("appDsyms.zip"))
        try Data(Self.names.utf8).write(to: folder.appendingPathComponent("names.txt"))
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            [
                "fuzz", "--seed", "3", "--iterations", "120", "--jobs", "1", "--out", folder.path + "/out",
                folder.appendingPathComponent("appDsyms.zip").path, folder.appendingPathComponent("names.txt").path,
                BuiltCommandTests.root.appendingPathComponent(Self.bundle).path,
            ]
        )
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("findings: none"), "\(run.stdout)")
        let line = run.stdout.split(separator: "\n").first { $0.hasPrefix("readers: ") }.map(String.init) ?? ""
        let counts = line.dropFirst("readers: ".count).split(separator: ",").map {
            $0.split(separator: " ").map(String.init)
        }
        #expect(
            counts.map { $0.first ?? "" } == ["mach-o", "dwarf-info", "dwarf-line", "swift-demangler", "cxx-demangler"]
        )
        for count in counts { #expect((Int(count.last ?? "") ?? 0) > 0, "\(line)") }
    }
}
