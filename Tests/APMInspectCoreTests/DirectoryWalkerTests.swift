import Foundation
import Testing

@testable import APMInspectCore

@Suite struct DirectoryWalkerTests {
    private static let report = Array("{\"bug_type\":\"298\"}\n{}\n".utf8)

    private func mkdir(_ path: RawPath) throws {
        guard path.withCString({ Foundation.mkdir($0, 0o700) }) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    @Test func namesThatAreNotUTF8KeepTheirBytes() throws {
        let folder = try TemporaryTestFolder()
        // Latin-1 "café" and a lone continuation byte: neither is UTF-8.
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".ips".utf8)
        let sub = folder.raw.appending([0x64, 0x69, 0x72, 0xFF])
        try mkdir(sub)
        let inFolder = try folder.write(Self.report, rawName: latin1)
        let nested = try folder.write(Self.report, rawName: [0x80, 0x2E, 0x69, 0x70, 0x73], in: sub)
        try folder.write(Self.report, named: "plain.ips")
        let (files, findings) = DirectoryWalker().files(in: [folder.raw])
        #expect(findings.isEmpty)
        #expect(Set(files) == [inFolder, nested, folder.raw.appending(Array("plain.ips".utf8))])
        #expect(!inFolder.isUTF8)
        #expect(inFolder.display == folder.path + "/caf\\xE9.ips")
        #expect(nested.display == folder.path + "/dir\\xFF/\\x80.ips")
        // The bytes still name the file: it opens and reads back.
        for file in files {
            let fd = file.withCString { open($0, O_RDONLY) }
            #expect(fd >= 0)
            if fd >= 0 { close(fd) }
        }
        // Named directly, it is found too (not "no such file").
        let direct = DirectoryWalker().files(in: [inFolder])
        #expect(direct.files == [inFolder])
        #expect(direct.findings.isEmpty)
    }

    @Test func escapingKeepsValidUTF8AndMarksEachInvalidByte() {
        #expect(RawPath.escaped(Array("Ünï/ok".utf8)) == "Ünï/ok")
        #expect(RawPath.escaped([0x61, 0xC3]) == "a\\xC3")
        #expect(RawPath.escaped([0xF0, 0x9F, 0x98, 0x80, 0xFF, 0xFE, 0x62]) == "😀\\xFF\\xFEb")
        #expect(RawPath.escaped([0xED, 0xA0, 0x80]) == "\\xED\\xA0\\x80")
    }

    @Test func aFolderThatCannotBeListedIsAnError() throws {
        let folder = try TemporaryTestFolder()
        let locked = folder.raw.appending(Array("locked".utf8))
        try mkdir(locked)
        try folder.write(Self.report, named: "locked/hidden.ips")
        try folder.write(Self.report, named: "seen.ips")
        // Root reads any folder; the lister stands in for the kernel's EACCES (the CI step
        // .ci/steps/unprivileged.sh checks the real thing as an unprivileged user).
        let walker = DirectoryWalker { path in
            path == locked ? .failure(.init(EACCES)) : DirectoryWalker.readDirectory(path)
        }
        let (files, findings) = walker.files(in: [folder.raw])
        #expect(files == [folder.raw.appending(Array("seen.ips".utf8))])
        #expect(findings.map(\.path) == [locked])
        #expect(findings.map(\.code) == [.walkCannotList])
        #expect(findings.allSatisfy { $0.isError })
        if getuid() != 0 {
            chmod(folder.path + "/locked", 0)
            defer { chmod(folder.path + "/locked", 0o700) }
            let real = DirectoryWalker().files(in: [folder.raw])
            #expect(real.findings.map(\.path) == [locked])
            #expect(real.findings.allSatisfy { $0.isError })
        }
    }

    @Test func symbolicLinkLoopsEndWithANote() throws {
        let folder = try TemporaryTestFolder()
        try mkdir(folder.raw.appending(Array("a".utf8)))
        try folder.write(Self.report, named: "a/one.ips")
        #expect(symlink("..", folder.path + "/a/up") == 0)
        #expect(symlink("a", folder.path + "/again") == 0)
        #expect(symlink("a/one.ips", folder.path + "/link.ips") == 0)
        #expect(symlink("missing", folder.path + "/dangling") == 0)
        #expect(mkfifo(folder.path + "/pipe", 0o600) == 0)
        let (files, findings) = DirectoryWalker().files(in: [folder.raw])
        #expect(files.map(\.display) == [folder.path + "/a/one.ips", folder.path + "/link.ips"])
        #expect(findings.allSatisfy { !$0.isError })
        let codes = Dictionary(findings.map { ($0.path.display.dropFirst(folder.path.count), $0.code) }) { a, _ in a }
        #expect(codes["/a/up"] == .walkAlreadyWalked)
        #expect(codes["/again"] == .walkAlreadyWalked)
        #expect(codes["/dangling"] == .walkDanglingLink)
        #expect(codes["/pipe"] == .walkNotARegularFile)
        // wording: the finding says what the entry is, in the words `ls -l` would suggest.
        #expect(findings.first { $0.code == .walkNotARegularFile }?.message.contains("a FIFO (named pipe)") == true)
    }

    @Test func missingPathsAreErrors() throws {
        let folder = try TemporaryTestFolder()
        #expect(symlink("nowhere", folder.path + "/dangling") == 0)
        let (files, findings) = DirectoryWalker().files(in: [
            folder.raw.appending(Array("absent".utf8)), folder.raw.appending(Array("dangling".utf8)),
        ])
        #expect(files.isEmpty)
        #expect(
            findings.map(\.code) == [.walkCannotOpen, .walkDanglingLink]
        )
        #expect(findings.allSatisfy { $0.isError })
    }
}
