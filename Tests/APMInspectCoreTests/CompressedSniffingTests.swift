import FuzzReplaySupport
import Testing

@testable import APMInspectCore

@Suite struct CompressedSniffingTests {
    @Test func aTarWhoseFirstMegabytesAreZerosIsStillATar() throws {
        let tar = TarFixture.tar([
            .init(name: "sysdiagnose_x/logs/zeros.bin", data: [UInt8](repeating: 0, count: 6 << 20)),
            .init(name: "sysdiagnose_x/a.ips", data: Array("{}".utf8)),
        ])
        let gz = TarFixture.gzip(tar)
        // The old check inflated a prefix into a 1 MiB bound and gave up when that bound was passed.
        #expect(throws: InputError.self) { try Inflate.decompress(gz, maxOutputBytes: 1 << 20) }
        let inflated = try #require(ContentSniffer.inflatedPrefix(of: gz, count: 512))
        #expect(inflated.count == 512)
        #expect(TarReader.isTar(inflated))
        #expect(ContentSniffer.compressedContentFormat(of: gz) == .tar)
    }

    @Test func aHARWithAHugelyCompressibleStartIsJSON() throws {
        let har = Array(("{\"log\":{\"comment\":\"" + String(repeating: " ", count: 3 << 20) + "\"}}").utf8)
        let gz = TarFixture.gzip(har)
        #expect(gz.count < 20_000)
        #expect(ContentSniffer.compressedContentFormat(of: gz) == .json)
    }

    @Test func notCompressedOrCorruptGivesNil() {
        #expect(ContentSniffer.inflatedPrefix(of: Array("hello".utf8), count: 10) == nil)
        #expect(ContentSniffer.inflatedPrefix(of: [0x1F, 0x8B, 8, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], count: 10) == nil)
        let gz = TarFixture.gzip(Array("short".utf8))
        #expect(ContentSniffer.inflatedPrefix(of: gz, count: 1000) == Array("short".utf8))
    }
}
