import Foundation
import FuzzReplaySupport
import Testing

@testable import APMInspectCore

/// Every gzip member is read, under the same limits; bytes after the last member are a finding.
///
/// gzip files may hold several members one after another (`cat a.gz b.gz`, appending writers); `gzip -d` reads
/// them all.
@Suite struct GzipMemberTests {
    private static let report = Array("{\"bug_type\":\"298\"}\n{}\n".utf8)

    /// A tar of three reports, cut at `split` and compressed as two gzip members.
    private static func twoMemberArchive(split: Int) -> (tar: [UInt8], gz: [UInt8]) {
        let tar = TarFixture.tar(
            (0..<3).map {
                .init(name: "crashes/JetsamEvent-\($0).ips", data: report + [UInt8](repeating: 0x20, count: 700))
            }
        )
        let cut = min(split, tar.count)
        return (tar, TarFixture.gzip(Array(tar[..<cut])) + TarFixture.gzip(Array(tar[cut...])))
    }

    private func names(_ bytes: [UInt8], options: TarReader.Options = .init()) throws -> ([String], [Diagnostic]) {
        var names: [String] = []
        let diagnostics = try TarReader(options: options).read(bytes: bytes) { names.append($0.path) }
        return (names, diagnostics)
    }

    @Test(arguments: [1, 512, 700, 1500, 2047])
    func aTarSplitAcrossMembersIsReadWhole(split: Int) throws {
        let (_, gz) = Self.twoMemberArchive(split: split)
        let expected = (0..<3).map { "crashes/JetsamEvent-\($0).ips" }
        let (inMemory, memoryFindings) = try names(gz)
        #expect(inMemory == expected)
        #expect(memoryFindings.isEmpty)
        // From a file too (the streaming path, 64 KiB reads, 4 KiB slices).
        let folder = try TemporaryTestFolder()
        let file = try folder.write(gz, named: "two-members.tar.gz")
        var fromFile: [String] = []
        let fileFindings = try TarReader().read(fileAt: file) { fromFile.append($0.path) }
        #expect(fromFile == expected)
        #expect(fileFindings.isEmpty)
    }

    @Test func membersSplitAtEveryByteOfTheFeedGiveTheSameOutput() throws {
        let (tar, gz) = Self.twoMemberArchive(split: 900)
        // One byte at a time: the second member's magic arrives split across feeds.
        let inflater = try Inflater()
        var out: [UInt8] = []
        for byte in gz { out += try inflater.feed([byte]).0 }
        #expect(out == tar)
        #expect(inflater.isAtEnd)
        #expect(inflater.trailingOffset(atEnd: true) == nil)
        let whole = try Inflate.decompress(gz)
        #expect(whole.bytes == tar)
        #expect(!whole.isTruncated)
    }

    @Test func decompressFileReadsEveryMember() throws {
        let (tar, gz) = Self.twoMemberArchive(split: 1000)
        let folder = try TemporaryTestFolder()
        let source = try folder.write(gz, named: "two.gz")
        let destination = folder.path + "/out"
        let outcome = try Inflate.decompressFile(at: source, to: destination)
        #expect(!outcome.isTruncated)
        #expect(try FileReading.contents(atPath: destination) == tar)
        // Cut inside the second member: truncated, with the first member's content out.
        let cut = try folder.write(Array(gz.dropLast(10)), named: "cut.gz")
        // The destination is created exclusively, so the cut one goes to a file of its own.
        #expect(try Inflate.decompressFile(at: cut, to: folder.path + "/cut-out").isTruncated)
    }

    @Test func bytesAfterTheLastMemberAreAFinding() throws {
        // No end-of-archive blocks, so the reader wants more after the gzip data ends.
        let tar = TarFixture.tar([.init(name: "JetsamEvent-1.ips", data: Self.report)], end: false)
        let gz = TarFixture.gzip(tar)
        for garbage in [Array("not gzip".utf8), [0x1F], [0x1F, 0x00, 0x00], [UInt8](repeating: 0, count: 512)] {
            let (found, findings) = try names(gz + garbage)
            #expect(found == ["JetsamEvent-1.ips"])
            #expect(findings.map(\.code) == [.gzipTrailingBytes], "garbage \(garbage.prefix(3))")
            // wording: the finding says where the ignored bytes start.
            #expect(findings.first?.message.contains("from offset \(gz.count) ") == true)
            let folder = try TemporaryTestFolder()
            let file = try folder.write(gz + garbage, named: "trailing.tar.gz")
            let fileFindings = try TarReader().read(fileAt: file) { _ in }
            #expect(fileFindings == findings)
        }
    }

    @Test func limitsCountEveryMember() throws {
        // 1.5 MiB of zeros in two members of 0.75 MiB each: neither alone reaches the 1 MiB bound, both do.
        let tar = TarFixture.tar([.init(name: "big.bin", data: [UInt8](repeating: 0, count: 3 << 19))])
        let half = tar.count / 2
        let gz = TarFixture.gzip(Array(tar[..<half])) + TarFixture.gzip(Array(tar[half...]))
        let options = TarReader.Options(maxTotalBytes: 1 << 20, maxEntries: 10, maxEntryBytes: 1 << 19)
        let (_, findings) = try names(gz, options: options)
        #expect(findings.map(\.code).contains(.archiveTotalSizeLimit))
        #expect(throws: InputError.self) {
            try Inflate.decompress(gz, maxOutputBytes: 1 << 20)
        }
        #expect(
            try Inflate.decompress(TarFixture.gzip(Array(tar[..<half])), maxOutputBytes: 1 << 20).bytes.count == half
        )
    }
}
