import Foundation
import Testing

@testable import ParserFuzzing

/// The worker sends Mach-O files to the symbolication readers, and the fixtures pass.
@Suite("fuzz: Mach-O")
struct FuzzMachOTests {
    static let fixtures = "Tests/SymbolicationTests/Fixtures/"
    /// A thin binary without DWARF, a fat binary, and a dSYM's DWARF file.
    static let files = [
        fixtures + "Demo-x86_64", fixtures + "Demo-fat", fixtures + "Demo-arm64",
        fixtures + "Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64",
    ]

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: PackageRoot.url.appendingPathComponent(path)))
    }

    @Test("the worker reads each fixture as atos does, with symbol names and source lines, and every check passes")
    func oracleReachesTheReaders() throws {
        var oracle = FuzzOracle(temporaryFolder: FileManager.default.temporaryDirectory.path, renderText: { _ in })
        for path in Self.files {
            let bytes = try Self.bytes(path)
            let verdict = oracle.check(bytes)
            #expect(verdict.kind == FuzzOracle.machOKind && verdict.property == nil, "\(path)")
            // The dSYM's DWARF reaches both DWARF readers, the symbol tables' mangled names both demanglers.
            let readers = Set(verdict.readers ?? [])
            #expect(readers.isSuperset(of: ["mach-o", "swift-demangler", "cxx-demangler"]), "\(path)")
            #expect(readers.contains("dwarf-line") == path.contains(".dSYM"), "\(path)")
            let probe = MachOProbe(bytes)
            #expect(probe.problems.isEmpty, "\(path)")
            // `main` at its symbol's start: `main (in fuzz-input) + 0` from the symbol table, a line from DWARF.
            let main = probe.transcript.filter { $0.hasPrefix("main (in \(MachOProbe.binaryName))") }
            #expect(!main.isEmpty, "\(path)")
            if path.contains(".dSYM") { #expect(main.contains { $0.contains("(main.c:") }, "\(path)") }
            #expect(!probe.json.isEmpty && probe.json.allSatisfy { $0.contains("\"symbol\":\"main\"") }, "\(path)")
        }
        // Text that is not Mach-O keeps the inspect path alone.
        #expect(oracle.check(Array("plain text\n".utf8)).kind != FuzzOracle.machOKind)
    }
}
