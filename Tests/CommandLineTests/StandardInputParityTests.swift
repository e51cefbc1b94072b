import Foundation
import FuzzReplaySupport
import Testing

/// Every command that reads inputs reads what `inspect` reads, from a path or from a pipe on standard input: the
/// same output for `cmd FILE` and `cat FILE | cmd -`, for a plain file, its gzip and a tar.gz holding it (issue 46).
@Suite("standard input gives what the file gives, in every command")
struct StandardInputParityTests {
    /// One way of giving a command its input.
    enum Packing: String, CaseIterable, Sendable {
        case plain
        case gzip
        case tarGzip = "tar.gz"
    }

    struct Case: Sendable, CustomStringConvertible {
        var arguments: [String]
        var source: String
        var description: String {
            (arguments + [URL(fileURLWithPath: source).lastPathComponent]).joined(separator: " ")
        }
    }

    static let dsyms = "Tests/SymbolicationTests/Fixtures"
    static let cases: [Case] = [
        Case(arguments: ["inspect", "--format", "ndjson"], source: BuiltCommandTests.jetsam),
        Case(arguments: ["inspect", "--format", "json"], source: BuiltCommandTests.crashText),
        Case(arguments: ["scan", "--format", "ndjson"], source: BuiltCommandTests.jetsam),
        Case(
            arguments: ["memory-limits", "--format", "json", "--schema-version", "2"],
            source: BuiltCommandTests.jetsam
        ),
        Case(arguments: ["memory-limits"], source: BuiltCommandTests.jetsam),
        Case(arguments: ["report", "--format", "json"], source: BuiltCommandTests.jetsam),
        Case(arguments: ["http", "--format", "json"], source: "Corpus/http/firefox_cache-hits_local-offset.har"),
        Case(
            arguments: ["energy", "--format", "json"],
            source: "Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL"
        ),
        Case(
            arguments: ["translate"],
            source: "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"
        ),
        Case(arguments: ["symbolicate", "--dsym", dsyms], source: "\(dsyms)/reports/Demo-arm64-ios.ips"),
        Case(
            arguments: ["symbolicate", "--format", "json", "--dsym", dsyms],
            source: "\(dsyms)/reports/Demo-arm64-ios.ips"
        ),
    ]

    /// The input packed as asked, in a fresh folder the caller removes.
    static func packed(_ source: String, _ packing: Packing, in folder: URL) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: BuiltCommandTests.root.appendingPathComponent(source)))
        let name = URL(fileURLWithPath: source).lastPathComponent
        let (file, content): (String, [UInt8]) =
            switch packing {
            case .plain: (name, bytes)
            case .gzip: (name + ".gz", TarFixture.gzip(bytes))
            case .tarGzip:
                (name + ".tar.gz", TarFixture.gzip(TarFixture.tar([TarFixture.Member(name: name, data: bytes)])))
            }
        let path = folder.appendingPathComponent(file).path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content)))
        return path
    }

    /// `cat FILE | apm-inspect ARGS -`: standard input a pipe, as users give it, not a redirected file.
    static func piped(_ bin: String, _ arguments: [String], from file: String, environment: [String: String] = [:])
        throws -> BuiltCommandTests.Run
    {
        try BuiltCommandTests.run(
            "/bin/sh",
            ["-c", "f=$1; shift; cat \"$f\" | \"$@\"", "sh", file, bin] + arguments + ["-"],
            environment: environment
        )
    }

    @Test("the same output from the file and from a pipe", arguments: cases, Packing.allCases)
    func parity(_ example: Case, _ packing: Packing) throws {
        let bin = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.packed(example.source, packing, in: folder)
        let environment = ["SOURCE_DATE_EPOCH": "1700000000"]
        let direct = try BuiltCommandTests.run(bin, example.arguments + [file], environment: environment)
        let fromPipe = try Self.piped(bin, example.arguments, from: file, environment: environment)
        // The file is named by its path in one and `-` in the other; nothing else may differ.
        func named(_ text: String) -> String { text.replacingOccurrences(of: file, with: "-") }
        #expect(!direct.signalled && !fromPipe.signalled)
        #expect(direct.status == fromPipe.status, "\(direct.stderr) | \(fromPipe.stderr)")
        #expect(named(direct.stdout) == fromPipe.stdout)
        #expect(named(direct.stderr) == fromPipe.stderr)
        // Plain files and archives are read: the output holds what the report says, not only an error.
        // `symbolicate` (text) writes one report per input, and says of an archive that `scan` reads it.
        let oneReport = example.arguments[0] == "symbolicate" && !example.arguments.contains("json")
        if packing != .tarGzip || !oneReport {
            #expect(direct.status == 0, "\(direct.stderr)")
            #expect(!direct.stdout.isEmpty)
        }
        // A gzip of one report (`x.ips.gz`) is that report to every command: never `unknown: gzip`.
        if packing == .gzip {
            #expect(!direct.stdout.contains("gzip-compressed data"))
            #expect(!direct.stdout.contains(#""kind" : "unknown""#) && !direct.stdout.contains(#""kind":"unknown""#))
            #expect(!direct.stdout.contains("0 JetsamEvent(s)"), "\(direct.stdout)")
        }
        if packing == .tarGzip && oneReport {
            #expect(fromPipe.stderr.contains("`apm-inspect scan` reads the reports"))
        }
        // translate gives an archive's crash report under its `ARCHIVE!/member` heading, the text as the file's.
        if packing == .tarGzip && example.arguments[0] == "translate" {
            let plain = try Self.packed(example.source, .plain, in: folder)
            let text = try BuiltCommandTests.run(bin, example.arguments + [plain], environment: environment).stdout
            let member = URL(fileURLWithPath: example.source).lastPathComponent
            #expect(direct.stdout == "==> \(file)!/\(member) <==\n" + text)
        }
    }

    @Test("a PowerLog on standard input is spooled into a private temporary folder, removed after the run")
    func powerLogSpool() throws {
        let bin = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("inputs")
        let scratch = folder.appendingPathComponent("tmp")
        for made in [inputs, scratch] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        let file = try Self.packed("Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL", .gzip, in: inputs)
        let run = try Self.piped(bin, ["energy"], from: file, environment: ["TMPDIR": scratch.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("PowerLog"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: inputs.path) == [
                URL(fileURLWithPath: file).lastPathComponent
            ]
        )
    }

    @Test("uuid lists the slices of a Mach-O file or a zip of dSYMs from a pipe as from the file")
    func uuidFromAPipe() throws {
        let bin = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dwarf = "Tests/SymbolicationTests/Fixtures/Demo-fat.dSYM/Contents/Resources/DWARF/Demo-fat"
        let bytes = [UInt8](try Data(contentsOf: BuiltCommandTests.root.appendingPathComponent(dwarf)))
        var zip = ZipArchiveBuilder()
        zip.add("Demo-fat.dSYM/Contents/Resources/DWARF/Demo-fat", bytes)
        let zipPath = folder.appendingPathComponent("appDsyms.zip").path
        #expect(FileManager.default.createFile(atPath: zipPath, contents: Data(zip.build())))
        let scratch = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        for (file, shown) in [(BuiltCommandTests.root.appendingPathComponent(dwarf).path, dwarf), (zipPath, zipPath)] {
            for format in ["text", "json"] {
                let direct = try BuiltCommandTests.run(bin, ["uuid", "--format", format, shown])
                let piped = try Self.piped(
                    bin,
                    ["uuid", "--format", format],
                    from: file,
                    environment: ["TMPDIR": scratch.path]
                )
                #expect(direct.status == 0 && piped.status == 0, "\(piped.stderr)")
                #expect(direct.stdout.replacingOccurrences(of: shown, with: "-") == piped.stdout)
                #expect(piped.stdout.contains("4C4C4486-5555-3144-A175-2DF7479AC8FA"))
            }
        }
        // The spool is gone once the run ends.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }
}
