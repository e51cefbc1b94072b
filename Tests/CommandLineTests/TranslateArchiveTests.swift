import Foundation
import FuzzReplaySupport
import Testing

/// `translate ARCHIVE`: the Apple text of each crash report inside a tar or tar.gz (a sysdiagnose), the rest of
/// the archive left out; into a folder with `-o`, never beside the input.
@Suite("translate: archives")
struct TranslateArchiveTests {
    static let ips = "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"
    static let kscrash = "Corpus/kscrash/v2.0_ios12.4_arm64_sigabrt_abort_signal.json"

    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: BuiltCommandTests.root.appendingPathComponent(relative)))
    }

    @Test("each crash report of an archive, named by its member, in a folder; other members left out")
    func intoFolder() throws {
        let bin = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tar = TarFixture.tar([
            .init(name: "logs/crashes/App-1.ips", data: try Self.bytes(Self.ips)),
            .init(name: "logs/crashes/App-2.ips.gz", data: TarFixture.gzip(try Self.bytes(Self.ips))),
            .init(name: "kscrash/report.json", data: try Self.bytes(Self.kscrash)),
            .init(name: "logs/JetsamEvent.ips", data: try Self.bytes(BuiltCommandTests.jetsam)),
            .init(name: "logs/text.crash", data: try Self.bytes(BuiltCommandTests.crashText)),
            .init(name: "ps.txt", data: Array("PID COMMAND\n1 launchd\n".utf8)),
        ])
        let archive = folder.appendingPathComponent("sysdiagnose.tar.gz").path
        #expect(FileManager.default.createFile(atPath: archive, contents: Data(TarFixture.gzip(tar))))
        let out = folder.appendingPathComponent("out").path
        let run = try BuiltCommandTests.run(bin, ["translate", archive, "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(written == ["App-1.crash", "App-2.crash", "report.json.crash"])
        let direct = try BuiltCommandTests.run(bin, ["translate", Self.ips])
        let first = try String(contentsOfFile: out + "/App-1.crash", encoding: .utf8)
        #expect(first == direct.stdout)
        #expect(try String(contentsOfFile: out + "/App-2.crash", encoding: .utf8) == direct.stdout)
        let kscrash = try BuiltCommandTests.run(bin, ["translate", Self.kscrash])
        #expect(try String(contentsOfFile: out + "/report.json.crash", encoding: .utf8) == kscrash.stdout)
        // Nothing beside the input.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["out", "sysdiagnose.tar.gz"]
        )
        // To standard output, each under its heading.
        let shown = try BuiltCommandTests.run(bin, ["translate", archive])
        #expect(shown.stdout.hasPrefix("==> \(archive)!/logs/crashes/App-1.ips <==\n" + direct.stdout))
        #expect(shown.stdout.contains("==> \(archive)!/kscrash/report.json <==\n"))
    }

    @Test("an archive without a crash report is an error that says so, with what was left out")
    func noCrash() throws {
        let bin = try BuiltCommandTests.binary()
        let folder = try BuiltCommandTests.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tar = TarFixture.tar([
            .init(name: "JetsamEvent.ips", data: try Self.bytes(BuiltCommandTests.jetsam)),
            .init(name: "ps.txt", data: Array("PID COMMAND\n".utf8)),
        ])
        let archive = folder.appendingPathComponent("quiet.tar").path
        #expect(FileManager.default.createFile(atPath: archive, contents: Data(tar)))
        let run = try BuiltCommandTests.run(bin, ["translate", archive])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("the archive holds no crash report translate reads (2 other file(s) left out)"))
    }
}
