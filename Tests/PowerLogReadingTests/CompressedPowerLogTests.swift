import APMInspectCore
import Foundation
import FuzzReplaySupport
import Testing

@testable import PowerLogReading

/// Archives and `.PLSQL.gz` files whose start compresses extremely well, and decompression bombs.
@Suite struct CompressedPowerLogTests {
    /// A ustar header for a member of `size` bytes (enough for the archive check and for `TarReader`).
    private static func tarHeader(name: String, size: Int) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ text: String, _ offset: Int) {
            for (k, byte) in text.utf8.enumerated() { block[offset + k] = byte }
        }
        put(name, 0)
        put("0000644", 100)
        let digits = String(size, radix: 8)
        put(String(repeating: "0", count: 11 - digits.count) + digits, 124)
        block[156] = UInt8(ascii: "0")
        put("ustar", 257)
        put("00", 263)
        for k in 148..<156 { block[k] = 0x20 }
        let sum = String(block.reduce(0) { $0 + Int($1) }, radix: 8)
        put(String(repeating: "0", count: 6 - sum.count) + sum, 148)
        block[154] = 0
        return block
    }

    @Test func aSysdiagnoseWhoseFirstMemberIsZerosIsStillAnArchive() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let size = 8 << 20
        let tar =
            Self.tarHeader(name: "sysdiagnose_x/logs/zeros.bin", size: size) + [UInt8](repeating: 0, count: size)
            + [UInt8](repeating: 0, count: 1024)
        let path = folder + "/sysdiagnose_x.tar.gz"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(Compressing.deflate(tar))))
        #expect(PowerLogReader.isArchive(path))
    }

    @Test func aGzipBombStopsAtTheExpansionRatioAndSaysSo() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let header = Array("SQLite format 3".utf8) + [0]
        let bomb = Compressing.deflate(header + [UInt8](repeating: 0, count: 80 << 20))
        let path = folder + "/bomb.PLSQL.gz"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bomb)))
        #expect(PowerLogReader.isCompressedSQLite(prefix: Array(bomb.prefix(8192))))
        do {
            _ = try PowerLogReader().read(path: path)
            Issue.record("a decompression bomb was read")
        } catch {
            #expect(error.code == .decompression)
            // wording: the error names the limit that fired (ratio, not size) and its figures.
            #expect(error.message.contains("expansion-ratio limit: 100:1 of \(bomb.count) compressed bytes"))
        }
    }

    @Test func aTarBombSaysWhichLimitStoppedIt() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let size = 80 << 20
        let tar =
            Self.tarHeader(name: "logs/powerlogs/x.PLSQL", size: size) + [UInt8](repeating: 0, count: size)
            + [UInt8](repeating: 0, count: 1024)
        let path = folder + "/bomb.tar.gz"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(Compressing.deflate(tar))))
        do {
            _ = try PowerLogReader().read(paths: [path])
            Issue.record("a tar bomb was read")
        } catch {
            let expected = "the archive holds no PowerLog database; expansion-ratio limit reached"
            // wording: the error names the limit that fired and its figures.
            #expect(error.message.contains(expected))
        }
    }

    /// `energy` reads archives with the limits every command uses (issue 40): a 300 MiB member is skipped before its
    /// bytes are read, as `scan` skips it (it was read up to 512 MiB here, against 256 MiB in `scan` and 64 MiB in
    /// `memory-limits`).
    @Test func aMemberOverTheCommonMemberLimitIsSkippedAsScanSkipsIt() throws {
        let folder = try CorpusSupport.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let corpus = "Corpus/powerlog/ios15_offset-change_D16AP_19H12.PLSQL"
        let database = try FileReading.contents(atPath: FuzzReplayInputs.root.appendingPathComponent(corpus).path)
        let members = [
            TarFixture.Member(name: "logs/powerlogs/a.PLSQL", data: database),
            TarFixture.Member(name: "logs/other/huge.log", declaredSize: 300 << 20),
        ]
        let path = folder + "/sysdiagnose_x.tar"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(TarFixture.tar(members, end: false))))
        let result = try PowerLogReader().read(paths: [path])
        #expect(result.report.sources.count == 1)
        let skipped = result.diagnostics.filter { $0.code == .archiveMemberTooLarge }
        #expect(skipped.count == 1)
        #expect(TarReader.Options().maxEntryBytes == 256 << 20)
    }
}
