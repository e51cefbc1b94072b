import Foundation
import FuzzReplaySupport
import Testing

/// The command as users run it: the built `apm-inspect` binary, its exit statuses, streams and temporary files.
@Suite("apm-inspect binary")
struct BuiltCommandTests {
    struct Run {
        var status: Int32
        var signalled: Bool
        var stdout: String
        var stderr: String
    }

    /// The package root, from this file's path (Tests/CommandLineTests/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The binary `swift build` made beside this test bundle (the same build configuration).
    static func binary() throws -> String {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            besideTests.appendingPathComponent("apm-inspect").path,
            besideTests.deletingLastPathComponent().appendingPathComponent("apm-inspect").path,
            root.appendingPathComponent(".build/debug/apm-inspect").path,
        ]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
        return try #require(found, "no apm-inspect binary beside the tests: \(candidates)")
    }

    /// Runs `executable arguments` in the package root with `stdin` from a file (or /dev/null).
    static func run(
        _ executable: String,
        _ arguments: [String],
        stdin: String? = nil,
        environment: [String: String] = [:]
    ) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = root
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: stdin ?? "/dev/null"))
        try process.run()
        // Read both to the end before waiting, so a large output cannot fill a pipe and stall the child.
        let errData = LockedData()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            signalled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self)
        )
    }

    final class LockedData: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func set(_ value: Data) { lock.withLock { data = value } }
        func get() -> Data { lock.withLock { data } }
    }

    static let jetsam = "Corpus/jetsam/ios13.3.1_iPhone8-2_frontmost-per-process-limit_1450MB.ips"
    static let crashText = "Corpus/crash/ios14.4_text_exc_bad_access_sigsegv_kern_invalid_address.crash"
    static let sysdiagnose = "Corpus/sysdiagnose/sysdiagnose_2024.03.01_10-20-30-0800_iPhone-OS_iPhone_21D61.tar.gz"

    /// A fresh folder under the system's temporary directory, removed by the caller.
    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("exit status by class: 0 read, 1 unreadable, 2 usage")
    func statusClasses() throws {
        let bin = try Self.binary()
        #expect(try Self.run(bin, ["inspect", Self.jetsam]).status == 0)
        let missing = try Self.run(bin, ["inspect", "Corpus/no-such-file.ips"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Corpus/no-such-file.ips: error: cannot open: No such file or directory"))
        for usage in [["inspect", "--bogus", Self.jetsam], ["inspect", "--format", "csv", Self.jetsam], ["inspect"]] {
            let run = try Self.run(bin, usage)
            #expect(run.status == 2, "\(usage)")
            #expect(run.stderr.contains("Error:"), "\(usage)")
            #expect(run.stdout.isEmpty)
        }
        #expect(try Self.run(bin, ["frobnicate"]).status == 2)
        // The usage message quotes what was typed: escaped, so an argument cannot drive the terminal.
        let hostile = try Self.run(bin, ["inspect", "--bad\u{1B}[31m", Self.jetsam])
        #expect(hostile.status == 2)
        #expect(hostile.stderr.contains("'--bad\\x1b[31m'") && !hostile.stderr.contains("\u{1B}"))
        #expect(try Self.run(bin, ["scan", "--jobs", "0", "Corpus"]).status == 2)
        let help = try Self.run(bin, ["inspect", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: apm-inspect inspect"))
    }

    @Test("one wording and status 1 for a missing file, an empty folder and an empty file, in every command")
    func oneWordingPerFailure() throws {
        let bin = try Self.binary()
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.ips").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let emptyFolder = folder.appendingPathComponent("nothing").path
        try FileManager.default.createDirectory(atPath: emptyFolder, withIntermediateDirectories: false)
        let missing = folder.appendingPathComponent("missing.ips").path
        for command in ["inspect", "memory-limits", "http", "energy", "translate", "scan"] {
            let gone = try Self.run(bin, [command, missing])
            #expect(gone.status == 1, "\(command)")
            #expect(gone.stderr.contains("\(missing): error: cannot open: No such file or directory\n"), "\(command)")
            let nothing = try Self.run(bin, [command, empty])
            #expect(nothing.status == 1, "\(command)")
            #expect(nothing.stderr.contains("\(empty): error: the file is empty\n"), "\(command): \(nothing.stderr)")
        }
        for command in ["inspect", "memory-limits", "http", "energy", "scan"] {
            let run = try Self.run(bin, [command, emptyFolder])
            #expect(run.status == 1, "\(command)")
            #expect(run.stderr.contains("\(emptyFolder): error: the folder holds no files; nothing was read\n"))
        }
    }

    /// `inspect` reads archives through the input layer `scan` uses (issue 40): the same envelopes, from a path or
    /// from standard input, as an array.
    @Test("inspect reads the reports of a sysdiagnose, from a path or standard input, as scan does")
    func inspectReadsArchives() throws {
        let bin = try Self.binary()
        let scan = try Self.run(bin, ["scan", "--format", "ndjson", Self.sysdiagnose])
        let inspect = try Self.run(bin, ["inspect", "--format", "ndjson", Self.sysdiagnose])
        #expect(inspect.status == 0)
        let lines = inspect.stdout.split(separator: "\n")
        #expect(lines.count >= 2)
        #expect(lines.allSatisfy { $0.contains("\"file\":\"\(Self.sysdiagnose)!/") })
        #expect(inspect.stdout == scan.stdout)
        let json = try Self.run(bin, ["inspect", "--format", "json", Self.sysdiagnose])
        #expect(json.stdout.hasPrefix("[\n"))
        let piped = try Self.run(
            bin,
            ["inspect", "--format", "json", "-"],
            stdin: Self.root.path + "/" + Self.sysdiagnose
        )
        #expect(piped.status == 0)
        #expect(piped.stdout.hasPrefix("[\n"))
        #expect(piped.stdout.components(separatedBy: "\"file\" : \"-!/").count == lines.count + 1)
    }

    /// An archive's own findings are in the JSON of every command that reads it (issue 40): an envelope of kind
    /// `archive` after its reports', with the findings' codes; `report` reads them back from the NDJSON as it lists
    /// them when it reads the archive itself.
    @Test("an archive's findings are an envelope of their own in scan and inspect JSON, and report reads them back")
    func archiveFindingsInJSON() throws {
        let bin = try Self.binary()
        let archive = "Corpus/sysdiagnose/hostile/links.tar.gz"
        for command in [["scan", "--format", "ndjson"], ["inspect", "--format", "ndjson"]] {
            let run = try Self.run(bin, command + [archive])
            #expect(run.status == 0)
            let last = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
            let envelope = try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
            #expect(envelope?["kind"] as? String == "archive", "\(command)")
            #expect(envelope?["file"] as? String == archive)
            let codes = (envelope?["diagnostics"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
            #expect(codes == ["archive.link-not-followed", "archive.link-not-followed"], "\(command)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ndjson = folder.appendingPathComponent("scan.ndjson").path
        try Data(try Self.run(bin, ["scan", "--format", "ndjson", archive]).stdout.utf8).write(
            to: URL(fileURLWithPath: ndjson)
        )
        let direct = try Self.run(bin, ["report", "--format", "json", archive])
        let replayed = try Self.run(bin, ["report", "--format", "json", ndjson])
        let findings = { (text: String) in
            ((try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any])?["findings"] as? [String]
        }
        #expect(findings(direct.stdout)?.count == 2)
        #expect(findings(direct.stdout) == findings(replayed.stdout))
    }

    /// `http` reads the captures inside a tar or tar.gz through the same input layer (issue 40): each is the
    /// envelope the capture gives on its own, named `ARCHIVE!/member`; other members are left out.
    @Test("http reads the captures inside an archive, each as it reads the capture itself")
    func httpReadsArchives() throws {
        let bin = try Self.binary()
        let har = "Corpus/http/firefox_cache-hits_local-offset.har"
        let bytes = [UInt8](try Data(contentsOf: Self.root.appendingPathComponent(har)))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tar = TarFixture.tar([
            .init(name: "logs/session.har", data: bytes), .init(name: "logs/notes.txt", data: Array("hi\n".utf8)),
        ])
        let archive = folder.appendingPathComponent("captures.tar.gz").path
        try Data(TarFixture.gzip(tar)).write(to: URL(fileURLWithPath: archive))
        let fromArchive = try Self.run(bin, ["http", "--format", "ndjson", archive])
        let alone = try Self.run(bin, ["http", "--format", "ndjson", har])
        #expect(fromArchive.status == 0 && alone.status == 0)
        let lines = fromArchive.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 1)
        let member = try JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
        let own = try JSONSerialization.jsonObject(with: Data(alone.stdout.utf8)) as? [String: Any]
        #expect(member?["file"] as? String == archive + "!/logs/session.har")
        #expect(member?["kind"] as? String == "httpArchive")
        #expect((member?["report"] as? NSDictionary) == (own?["report"] as? NSDictionary))
        let text = try Self.run(bin, ["http", archive])
        #expect(text.status == 0)
        #expect(text.stdout.contains(archive + "!/logs/session.har"))
        // The same archive on standard input (issue 46): the same envelope, named `-!/member`.
        let piped = try Self.run(bin, ["http", "--format", "ndjson", "-"], stdin: archive)
        #expect(piped.status == 0, "\(piped.stderr)")
        let pipedMember = try JSONSerialization.jsonObject(with: Data(piped.stdout.utf8)) as? [String: Any]
        #expect(pipedMember?["file"] as? String == "-!/logs/session.har")
        #expect((pipedMember?["report"] as? NSDictionary) == (own?["report"] as? NSDictionary))
    }

    /// An archive's own findings reach `http`'s JSON as its envelope of kind `archive` after its captures, as in
    /// `inspect` and `scan`, and still go to standard error.
    @Test("http --format ndjson carries a truncated archive's finding as its own envelope")
    func httpArchiveFindingsInJSON() throws {
        let bin = try Self.binary()
        let har = "Corpus/http/firefox_cache-hits_local-offset.har"
        let bytes = [UInt8](try Data(contentsOf: Self.root.appendingPathComponent(har)))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tar = TarFixture.tar([.init(name: "one.har", data: bytes), .init(name: "two.har", data: bytes)])
        let gzip = TarFixture.gzip(tar)
        let archive = folder.appendingPathComponent("cut.tar.gz").path
        try Data(gzip.prefix(gzip.count * 3 / 4)).write(to: URL(fileURLWithPath: archive))
        let run = try Self.run(bin, ["http", "--format", "ndjson", archive])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let envelopes = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let last = try #require(envelopes.last ?? nil)
        #expect(last["kind"] as? String == "archive")
        #expect(last["file"] as? String == archive)
        let codes = (last["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes.contains("archive.truncated"), "\(codes)")
        #expect(envelopes.dropLast().allSatisfy { ($0?["kind"] as? String) == "httpArchive" })
        #expect(run.stderr.contains("archive.truncated") || run.stderr.contains("truncated"))
    }

    @Test("hints: a sysdiagnose given to symbolicate points to scan; a text report is already text")
    func hints() throws {
        let bin = try Self.binary()
        let symbolicateArchive = try Self.run(
            bin,
            ["symbolicate", "--dsym", "Tests/SymbolicationTests/Fixtures", Self.sysdiagnose]
        )
        #expect(symbolicateArchive.status == 1)
        #expect(symbolicateArchive.stderr.contains("`apm-inspect scan` reads the reports inside it"))
        let translateText = try Self.run(bin, ["translate", Self.crashText])
        #expect(translateText.status == 1)
        #expect(translateText.stderr.contains("error: already a text crash report: nothing to translate"))
    }

    @Test("- reads standard input, sniffed like a file and named -")
    func standardInput() throws {
        let bin = try Self.binary()
        let json = try Self.run(bin, ["inspect", "--format", "json", "-"], stdin: Self.root.path + "/" + Self.jetsam)
        #expect(json.status == 0)
        let envelope = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        )
        #expect(envelope["file"] as? String == "-")
        #expect(envelope["kind"] as? String == "jetsamEvent")
        let limits = try Self.run(bin, ["memory-limits", "-"], stdin: Self.root.path + "/" + Self.jetsam)
        #expect(limits.status == 0 && limits.stdout.contains("iPhone8,2"))
        let translate = try Self.run(
            bin,
            ["translate", "-"],
            stdin: Self.root.path
                + "/Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"
        )
        #expect(translate.status == 0 && translate.stdout.contains("Incident Identifier: 89EA024E"))
        let har = try Self.run(
            bin,
            ["http", "-"],
            stdin: Self.root.path + "/Corpus/http/chrome_h2_ssl-inside-connect.har"
        )
        #expect(har.status == 0 && har.stdout.hasPrefix("HTTP archive  -\n"))
        // An empty file on standard input: the same words as an empty file named.
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nothing = folder.appendingPathComponent("nothing").path
        #expect(FileManager.default.createFile(atPath: nothing, contents: Data()))
        let empty = try Self.run(bin, ["inspect", "-"], stdin: nothing)
        #expect(empty.status == 1 && empty.stderr.contains("-: error: the file is empty"))
    }

    @Test("--format json: a folder is an array even of one file; --array makes one file an array too")
    func jsonShape() throws {
        let bin = try Self.binary()
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            atPath: Self.root.path + "/" + Self.jetsam,
            toPath: folder.appendingPathComponent("one.ips").path
        )
        let folderRun = try Self.run(bin, ["inspect", "--format", "json", folder.path])
        #expect(try JSONSerialization.jsonObject(with: Data(folderRun.stdout.utf8)) is [Any])
        let arrayRun = try Self.run(bin, ["inspect", "--format", "json", "--array", Self.jetsam])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(arrayRun.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 1 && array.first?["kind"] as? String == "jetsamEvent")
        let oneRun = try Self.run(bin, ["inspect", "--format", "json", Self.jetsam])
        #expect(try JSONSerialization.jsonObject(with: Data(oneRun.stdout.utf8)) is [String: Any])
    }

    @Test("inspect over a folder prints every file in input order, in every format")
    func streamedOrder() throws {
        let bin = try Self.binary()
        let expected = try Self.run(bin, ["inspect", "--format", "ndjson", "--jobs", "1", "Corpus/jetsam"])
        let files = expected.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["file"] as? String
        }
        #expect(files.count > 10)
        #expect(files == files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        let parallel = try Self.run(bin, ["inspect", "--format", "ndjson", "--jobs", "4", "Corpus/jetsam"])
        #expect(parallel.stdout == expected.stdout)
        let json = try Self.run(bin, ["inspect", "--format", "json", "--jobs", "3", "Corpus/jetsam"])
        let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(array.compactMap { $0["file"] as? String } == files)
        let text = try Self.run(bin, ["inspect", "--wide", "--jobs", "3", "Corpus/jetsam"])
        let titles = text.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") && $0.contains("Corpus/jetsam/") }
        #expect(titles.count == files.count)
    }

    @Test("http reads the captures of a folder, notes the other files, and calls a folder without one an error")
    func httpFolders() throws {
        let bin = try Self.binary()
        let run = try Self.run(bin, ["http", "--format", "json", "Corpus/http"])
        #expect(run.status == 0)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let files = array.compactMap { $0["file"] as? String }
        #expect(files.contains("Corpus/http/chrome_h2_ssl-inside-connect.har"))
        #expect(files.contains("Corpus/http/generated_tls13_ipv6.pcapng"))
        #expect(files == files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(!files.contains("Corpus/http/README.md"))
        #expect(run.stderr.contains("Corpus/http/README.md: note: not an HTTP capture; skipped"))
        let none = try Self.run(bin, ["http", "Corpus/jetsam"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("Corpus/jetsam: error: no HTTP capture (HAR, Charles session, pcap/pcapng) found"))
    }

    @Test("translate: several reports to standard output with separators, or into a folder with -o")
    func translateSeveral() throws {
        let bin = try Self.binary()
        let ips = "Corpus/crash/ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys.ips"
        let watchdog = "Corpus/watchdog/ios16.1_309_frontboard_scene-update_8badf00d_sync_network.ips"
        let one = try Self.run(bin, ["translate", ips])
        #expect(one.status == 0 && !one.stdout.contains("==>"))
        let both = try Self.run(bin, ["translate", ips, watchdog])
        #expect(both.status == 0)
        #expect(both.stdout.hasPrefix("==> \(ips) <==\n" + one.stdout))
        #expect(both.stdout.contains("\n==> \(watchdog) <==\n"))
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        let written = try Self.run(bin, ["translate", "-o", out, ips, ips, Self.crashText])
        // The text report cannot be translated (status 1); the two others are written, the second numbered.
        #expect(written.status == 1)
        #expect(written.stderr.contains("already a text crash report"))
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        let base = "ios17.2.1_309_json_exc_crash_sigabrt_nsexception_leb_unknown_keys"
        #expect(names == ["\(base)-2.crash", "\(base).crash"])
        #expect(try String(contentsOfFile: out + "/\(base).crash", encoding: .utf8) == one.stdout)
    }

    @Test("a symbolic link inside a folder is read, a dangling one is reported, neither dropped in silence")
    func symbolicLinksInFolders() throws {
        let bin = try Self.binary()
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("linked.ips").path,
            withDestinationPath: Self.root.path + "/" + Self.jetsam
        )
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("dangling.ips").path,
            withDestinationPath: folder.appendingPathComponent("nowhere").path
        )
        let run = try Self.run(bin, ["inspect", "--format", "ndjson", folder.path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("\"file\":\"\(folder.path)/linked.ips\",\"kind\":\"jetsamEvent\""))
        #expect(run.stderr.contains("\(folder.path)/dangling.ips: note: a symbolic link to nothing; skipped"))
    }

    @Test("a reader that closes the pipe early ends the run by SIGPIPE with no temporary file left")
    func brokenPipeCleansUp() throws {
        let bin = try Self.binary()
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmp = folder.appendingPathComponent("tmp").path
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: false)
        // scan makes its temporary folder first, then materialises the sysdiagnose's PowerLog into it; the many
        // envelopes of Corpus/ overflow the pipe once `head` has gone.
        for arguments in ["scan --format ndjson Corpus", "inspect --format json Corpus", "inspect Corpus"] {
            let script = """
                set -o pipefail
                TMPDIR='\(tmp)' '\(bin)' \(arguments) 2>'\(folder.path)/err' | head -c 100 > /dev/null
                echo "${PIPESTATUS[0]}"
                """
            let run = try Self.run("/bin/bash", ["-c", script])
            #expect(run.stdout == "141\n", "\(arguments)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty, "\(arguments)")
            let stderr = try String(contentsOfFile: folder.path + "/err", encoding: .utf8)
            #expect(!stderr.contains("cannot write"), "\(arguments): \(stderr)")
        }
    }
}
