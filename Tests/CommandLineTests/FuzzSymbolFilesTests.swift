import Foundation
import FuzzReplaySupport
import ReportSources
import Testing

@testable import ParserFuzzing
@testable import apm_inspect

/// `fuzz` over symbol files through the command: Mach-O binaries, dSYM bundles, zips of them and text files of
/// mangled names reach the DWARF index and both demanglers, and the summary says how many inputs each reader ran on.
@Suite("fuzz: symbol files")
struct FuzzSymbolFilesTests {
    static let fixtures = "Tests/SymbolicationTests/Fixtures/"
    /// A thin binary without DWARF, a fat binary, and a dSYM's DWARF file.
    static let files = [
        fixtures + "Demo-x86_64", fixtures + "Demo-fat", fixtures + "Demo-arm64",
        fixtures + "Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64",
    ]
    static let bundle = fixtures + "Demo-arm64.dSYM"
    static let dwarfFile = bundle + "/Contents/Resources/DWARF/Demo-arm64"
    static let names = """
        $s4Demo14ViewControllerC11viewDidLoadyyFyycfU_
        $s4Demo5clamp_3min3maxxx_xxtSLRzlF
        _ZNSt6vectorIN4demo5FrameESaIS1_EE9push_backERKS1_
        __ZZN4demo8Renderer4drawEvENKUlRKiE_clES2_

        not a mangled name
        """

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: BuiltCommandTests.root.appendingPathComponent(path)))
    }

    @Test("a seeded run over the Mach-O fixtures reads most inputs as Mach-O and finds nothing")
    func seededRun() throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let iterations = 150
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["fuzz", "--seed", "1", "--iterations", "\(iterations)", "--jobs", "1", "--out", folder.path + "/out"]
                + Self.files
        )
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("findings: none"))
        #expect(run.stdout.contains("families run 1/1: mach-o 4"), "\(run.stdout)")
        // `read as: machO 143, unknown 7`: a mutation may break the magic, most keep it.
        let readAs = run.stdout.split(separator: "\n").first { $0.hasPrefix("read as: ") } ?? ""
        let counts = readAs.dropFirst("read as: ".count).split(separator: ",").map {
            $0.split(separator: " ").map(String.init)
        }
        let machO = counts.first { $0.first == FuzzOracle.machOKind }.flatMap { Int($0.last ?? "") } ?? 0
        #expect(machO >= iterations * 3 / 4, "\(readAs)")
    }

    @Test("a zip of dSYMs gives its Mach-O members as seeds; a dSYM bundle gives its DWARF file")
    func zipsAndBundlesGiveTheirDWARFFiles() throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var zip = ZipArchiveBuilder()
        zip.add("Demo-arm64.dSYM/Contents/Info.plist", Array("<plist/>".utf8))
        zip.add("Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64", try Self.bytes(Self.dwarfFile))
        let zipPath = folder.path + "/appDsyms.zip"
        try Data(zip.build()).write(to: URL(fileURLWithPath: zipPath))
        let bundlePath = BuiltCommandTests.root.appendingPathComponent(Self.bundle).path
        let (files, failures) = PathWalker.files(in: [zipPath, bundlePath])
        let corpus = FuzzCorpus.load(files: files, bundled: false, maxInputBytes: 1 << 20)
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
        zip.add("Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64", try Self.bytes(Self.dwarfFile))
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
