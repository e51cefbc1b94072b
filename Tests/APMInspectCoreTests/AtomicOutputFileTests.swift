import Foundation
import Testing

@testable import APMInspectCore

/// Output paths never destroy evidence: no write through a link, none over an input however it is spelled, and a
/// failed write leaves the old file whole and no temporary file behind.
@Suite("Atomic output file")
struct AtomicOutputFileTests {
    private static let evidence = Array("Incident Identifier: 1F3C\nException Type: EXC_CRASH (SIGABRT)\n".utf8)

    private static func bytes(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// The names in `folder`, so a leftover temporary file shows.
    private static func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    private static func thrown(_ body: () throws(OutputFileError) -> Void) -> OutputFileError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("a symbolic link at the target is refused and the file it leads to is untouched")
    func symbolicLinkRefused() throws {
        let folder = try TemporaryTestFolder()
        let real = try folder.write(Self.evidence, named: "real.ips")
        let link = folder.path + "/out.crash"
        #expect(symlink(real, link) == 0)
        let error = Self.thrown { () throws(OutputFileError) in try AtomicOutputFile.write("replaced", to: link) }
        #expect(error?.kind == .symbolicLink)
        #expect(error?.isRefusal == true)
        #expect(Self.bytes(real) == Self.evidence)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == real)
        #expect(Self.names(folder.path) == ["out.crash", "real.ips"])
    }

    @Test(
        "an output that is an input is refused whatever its spelling, and the input keeps its bytes",
        arguments: ["same", "dot", "symlink", "hardlink"]
    )
    func inputRefusedInEverySpelling(spelling: String) throws {
        let folder = try TemporaryTestFolder()
        let input = try folder.write(Self.evidence, named: "x.ips")
        let inputs = Set([try #require(FileIdentity(path: input))])
        let output: String
        switch spelling {
        case "dot": output = folder.path + "/./x.ips"
        case "symlink":
            output = folder.path + "/link.ips"
            #expect(symlink("x.ips", output) == 0)
        case "hardlink":
            output = folder.path + "/hard.ips"
            #expect(link(input, output) == 0)
        default: output = input
        }
        let before = Self.names(folder.path)
        let error = Self.thrown { () throws(OutputFileError) in
            try AtomicOutputFile.write("translated", to: output, protecting: inputs)
        }
        #expect(error?.kind == .sameAsInput)
        #expect(AtomicOutputFile.refusal(of: output, protecting: inputs)?.kind == .sameAsInput)
        #expect(Self.bytes(input) == Self.evidence)
        #expect(Self.names(folder.path) == before)
    }

    @Test("a folder at the target is refused")
    func folderRefused() throws {
        let folder = try TemporaryTestFolder()
        let error = Self.thrown { () throws(OutputFileError) in try AtomicOutputFile.write("x", to: folder.path) }
        #expect(error?.kind == .folder)
    }

    @Test("a folder that does not exist gives an error and creates nothing")
    func missingFolder() throws {
        let folder = try TemporaryTestFolder()
        let error = Self.thrown { () throws(OutputFileError) in
            try AtomicOutputFile.write("x", to: folder.path + "/gone/out.crash")
        }
        #expect(error?.kind == .system)
        #expect(error?.errorNumber == ENOENT)
        #expect(Self.names(folder.path).isEmpty)
    }

    @Test("a successful write replaces the file by rename: a second name of the old file keeps the old bytes")
    func successReplacesAtomically() throws {
        let folder = try TemporaryTestFolder()
        let target = try folder.write(Self.evidence, named: "out.crash")
        #expect(chmod(target, 0o600) == 0)
        let oldName = folder.path + "/old.crash"
        #expect(link(target, oldName) == 0)
        let before = try #require(FileIdentity(path: target))
        let text = String(repeating: "Thread 0 Crashed:\n", count: 10_000)
        try AtomicOutputFile.write(text, to: target)
        #expect(Self.bytes(target) == Array(text.utf8))
        #expect(FileIdentity(path: target) != before)
        #expect(Self.bytes(oldName) == Self.evidence)
        #expect(Self.names(folder.path) == ["old.crash", "out.crash"])
        // The permission bits of the file replaced are kept.
        var info = stat()
        #expect(stat(target, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(!TemporaryFiles.folders.contains { $0.hasPrefix(folder.path) })
    }

    @Test("a new file is created with at most mode 0644, and bytes are written in full")
    func newFileMode() throws {
        let folder = try TemporaryTestFolder()
        let target = folder.path + "/new.svg"
        try AtomicOutputFile.write(Self.evidence, to: target)
        #expect(Self.bytes(target) == Self.evidence)
        var info = stat()
        #expect(stat(target, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFREG)
        #expect(info.st_mode & 0o777 & ~0o644 == 0)
        #expect(Self.names(folder.path) == ["new.svg"])
    }

    @Test("short writes are retried until every byte is written")
    func shortWrites() throws {
        let folder = try TemporaryTestFolder()
        let target = folder.path + "/out.crash"
        let result = Self.evidence.withUnsafeBytes { buffer in
            AtomicOutputFile.write(buffer, to: target, protecting: []) { fd, pointer, count in
                Foundation.write(fd, pointer, min(count, 3))
            }
        }
        #expect((try? result.get()) != nil)
        #expect(Self.bytes(target) == Self.evidence)
    }

    @Test("a failing write leaves the old target whole and no temporary file", arguments: [ENOSPC, EIO, EDQUOT])
    func failingWriteKeepsOldTarget(code: Int32) throws {
        let folder = try TemporaryTestFolder()
        let target = try folder.write(Self.evidence, named: "report.html")
        let text = Array(String(repeating: "<tr><td>crash</td></tr>\n", count: 1000).utf8)
        var calls = 0
        let result = text.withUnsafeBytes { buffer in
            AtomicOutputFile.write(buffer, to: target, protecting: []) { fd, pointer, count in
                calls += 1
                // Half the text goes out, then the disk fills.
                if calls == 1 { return Foundation.write(fd, pointer, count / 2) }
                errno = code
                return -1
            }
        }
        let error = Self.thrown { () throws(OutputFileError) in try result.get() }
        #expect(error?.kind == .system)
        #expect(error?.errorNumber == code)
        #expect(Self.bytes(target) == Self.evidence)
        #expect(Self.names(folder.path) == ["report.html"])
        #expect(!TemporaryFiles.folders.contains { $0.hasPrefix(folder.path) })
    }

    @Test("a write of nothing accepted is an error, not a loop")
    func zeroWriteIsAnError() throws {
        let folder = try TemporaryTestFolder()
        let target = folder.path + "/out.crash"
        let result = Self.evidence.withUnsafeBytes { buffer in
            AtomicOutputFile.write(buffer, to: target, protecting: []) { _, _, _ in 0 }
        }
        let error = Self.thrown { () throws(OutputFileError) in try result.get() }
        #expect(error?.errorNumber == EIO)
        #expect(Self.names(folder.path).isEmpty)
    }

    @Test("a device at the target is written in place, not replaced: /dev/full says the disk is full")
    func deviceWrittenInPlace() throws {
        var info = stat()
        try #require(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        let error = Self.thrown { () throws(OutputFileError) in try AtomicOutputFile.write("report", to: "/dev/full") }
        #expect(error?.errorNumber == ENOSPC)
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
        try AtomicOutputFile.write("report", to: "/dev/null")
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("the folder of a path: . for a bare name, / for a file at the root")
    func folderOfPath() {
        #expect(AtomicOutputFile.folderOf("out.crash") == ".")
        #expect(AtomicOutputFile.folderOf("/out.crash") == "/")
        #expect(AtomicOutputFile.folderOf("a/b/out.crash") == "a/b")
    }
}
