import Foundation
import FuzzReplaySupport
import Testing

/// `apm-inspect uuid`, run as a user would: the lines of `dwarfdump --uuid` for the fixtures (whose UUIDs
/// llvm-dwarfdump recorded in Tests/SymbolicationTests/Fixtures/MANIFEST.md), zips read in place, failures said.
@Suite("uuid: the slices of dSYMs, binaries and zips")
struct UUIDCommandTests {
    static let fixtures = "Tests/SymbolicationTests/Fixtures/"
    static let arm64 = "4C4C4486-5555-3144-A175-2DF7479AC8FA"
    static let x86 = "4C4C448E-5555-3144-A15D-64C4E4FA849B"

    @Test("a fat dSYM lists both slices in file order, each with the DWARF file inside the bundle")
    func fatBundle() throws {
        let run = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["uuid", Self.fixtures + "Demo-fat.dSYM"])
        #expect(run.status == 0, "\(run.stderr)")
        let dwarf = Self.fixtures + "Demo-fat.dSYM/Contents/Resources/DWARF/Demo-fat"
        #expect(run.stdout == "UUID: \(Self.x86) (x86_64) \(dwarf)\nUUID: \(Self.arm64) (arm64) \(dwarf)\n")
        #expect(run.stderr.isEmpty)
    }

    @Test("a binary and its dSYM are both listed, with one UUID (every copy, unlike --dsym's index)")
    func everyCopy() throws {
        let run = try BuiltCommandTests.run(
            try BuiltCommandTests.binary(),
            ["uuid", Self.fixtures + "Demo-arm64", Self.fixtures + "Demo-arm64.dSYM"]
        )
        #expect(run.status == 0)
        #expect(
            run.stdout.split(separator: "\n") == [
                "UUID: \(Self.arm64) (arm64) \(Self.fixtures)Demo-arm64",
                "UUID: \(Self.arm64) (arm64) \(Self.fixtures)Demo-arm64.dSYM/Contents/Resources/DWARF/Demo-arm64",
            ]
        )
    }

    @Test("a zip of dSYMs is read in place: archive:member, and --format json names them apart")
    func zipOfDSYMs() throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dwarf = "Demo-x86_64.dSYM/Contents/Resources/DWARF/Demo-x86_64"
        var zip = ZipArchiveBuilder()
        zip.add("Demo-x86_64.dSYM/Contents/Info.plist", Array("<plist/>".utf8))
        zip.add(
            dwarf,
            Array(try Data(contentsOf: BuiltCommandTests.root.appendingPathComponent(Self.fixtures + dwarf)))
        )
        let zipPath = folder.path + "/appDsyms.zip"
        try Data(zip.build()).write(to: URL(fileURLWithPath: zipPath))
        let before = try Data(contentsOf: URL(fileURLWithPath: zipPath))

        let text = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["uuid", zipPath])
        #expect(text.status == 0)
        #expect(text.stdout == "UUID: \(Self.x86) (x86_64) \(zipPath):\(dwarf)\n")

        let json = try BuiltCommandTests.run(try BuiltCommandTests.binary(), ["uuid", "--format", "json", zipPath])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let slices = try #require(object["slices"] as? [[String: String]])
        #expect(slices == [["uuid": Self.x86, "arch": "x86_64", "path": zipPath, "member": dwarf]])
        #expect((object["diagnostics"] as? [Any])?.isEmpty == true)
        // Nothing was extracted beside the evidence, and the archive is untouched.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["appDsyms.zip"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: zipPath)) == before)
    }

    @Test("a missing path and a file that is not Mach-O exit 1 after the others are listed; JSON carries codes")
    func failures() throws {
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.path + "/notes.txt"
        try Data("not a binary\n".utf8).write(to: URL(fileURLWithPath: notes))
        let missing = folder.path + "/gone.dSYM"
        let arguments = ["uuid", missing, Self.fixtures + "Demo-x86_64", notes]
        let run = try BuiltCommandTests.run(try BuiltCommandTests.binary(), arguments)
        #expect(run.status == 1)
        #expect(run.stdout == "UUID: \(Self.x86) (x86_64) \(Self.fixtures)Demo-x86_64\n")
        // One line per path, `path: severity: message` as every command writes them.
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(run.stderr)")
        #expect(lines.first?.hasPrefix("\(missing): error: cannot open: ") == true, "\(run.stderr)")
        #expect(lines.last?.hasPrefix("\(notes): warning: ") == true, "\(run.stderr)")

        let json = try BuiltCommandTests.run(try BuiltCommandTests.binary(), arguments.inserting("--format", "json"))
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        let codes = diagnostics.compactMap { $0["code"] as? String }
        #expect(codes.contains("dsym.cannot-open"), "\(diagnostics)")
        #expect(codes.contains("dsym.not-macho"), "\(diagnostics)")
        #expect(diagnostics.contains { $0["file"] as? String == missing })
    }
}

extension Array where Element == String {
    /// The arguments with `values` after the command name.
    fileprivate func inserting(_ values: String...) -> [String] {
        [self[0]] + values + self.dropFirst()
    }
}
